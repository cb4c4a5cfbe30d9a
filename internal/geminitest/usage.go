package geminitest

import "encoding/json"

// ReplyText is the model text the stand-in sends for a reply: its JSON marshalled, or
// else its Text.
func ReplyText(rep Reply) string {
	if rep.JSON != nil {
		if b, err := json.Marshal(rep.JSON); err == nil {
			return string(b)
		}
	}
	return rep.Text
}

// ReplyTokens is what the stand-in reports a reply to a call cost, in input and output
// tokens: the reply's own counts, or else a count from the prompt, its images and the
// answer's text. A reply that faults (an HTTP error) reports none; a blocked one reports
// its input only. A harness that counts what a run spent from the stand-in's side uses
// it, so that both sides count with the same rule.
func ReplyTokens(c Call, rep Reply) (in, out int) {
	if rep.Status != 0 && rep.Status != 200 {
		return 0, 0
	}
	in, out = rep.InputTokens, rep.OutputTokens
	if in == 0 {
		in = len(c.Prompt)/4 + c.ImageTokens
	}
	if rep.BlockReason != "" {
		return in, 0
	}
	if out == 0 {
		out = len(ReplyText(rep))/4 + 1
	}
	return in, out
}
