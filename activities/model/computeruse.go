package model

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"google.golang.org/genai"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/jsnum"
	"github.com/webagent-dev/webagent/plan"
)

// PredefinedFunctions are the computer-use tool's actions. The tool sees the screen as a
// 1000×1000 grid, whatever its size.
var PredefinedFunctions = []string{
	"open_web_browser", "wait_5_seconds", "go_back", "go_forward", "search", "navigate",
	"click_at", "hover_at", "type_text_at", "key_combination", "scroll_document", "scroll_at",
	"drag_and_drop",
}

// aliases are the names the newer models' streamlined actions give the same functions.
var aliases = map[string]string{"click": "click_at", "type": "type_text_at"}

// Grid is the size of the tool's coordinate space, on each axis.
const Grid = 1000

// toolFunction is the one predefined function that can do a step's action, if any: a
// step is one action on one target, so the tool gets only that action and every other
// is excluded (navigating, going back, key combinations are other steps of the plan).
func toolFunction(a plan.Action) (string, bool) {
	switch a {
	case plan.Click:
		return "click_at", true
	case plan.Type:
		return "type_text_at", true
	}
	return "", false
}

// UsesComputerUse reports whether the computer-use tool decides a step of this action
// when it is on; the other actions are decided from the numbered list.
func UsesComputerUse(a plan.Action) bool {
	_, ok := toolFunction(a)
	return ok
}

// ComputerUseInput is one computer-use decision: the step (bound), the numbered
// screenshot, and the step's earlier computer-use actions with the pages they left.
type ComputerUseInput struct {
	activities.DecideInput
	Page   Page
	Marked []byte
	Width  int
	Height int
	// TurnShots are the screenshots of the Turns' After pages, in order.
	TurnShots [][]byte
}

// ComputerUse asks the model, with the computer-use tool on, where to do the step. It
// maps the tool's action to the screenshot's pixels, and refuses with a reason an action
// that is not exactly the step's: another function, another text, a point off the
// screen. A call that needs a person's confirmation comes back with Confirm set.
func (c *Client) ComputerUse(ctx context.Context, in ComputerUseInput) (activities.DecideResult, error) {
	var res activities.DecideResult
	fn, ok := toolFunction(in.Step.Action)
	if !ok {
		return res, fmt.Errorf("the computer-use tool cannot do a %s step", in.Step.Action)
	}
	system, user, err := Render(string(RoleComputerUse), in)
	if err != nil {
		return res, err
	}
	rc := c.cfg.Role(RoleComputerUse)
	resp, err := c.send(ctx, rc, in.Budget, &res.Usage, computerUseContents(user, in), computerUseConfig(rc, system, fn))
	if err != nil {
		return res, err
	}
	fc, sig := functionCall(resp)
	if fc == nil {
		text := strings.TrimSpace(resp.Text())
		if text == "" {
			text = "it answered with no action"
		}
		return refused(res, in, text), nil
	}
	return toolDecision(res, in, fn, fc, sig), nil
}

// computerUseContents are the conversation so far: the step with its numbered
// screenshot, then each earlier turn's call and the page it left.
func computerUseContents(user string, in ComputerUseInput) []*genai.Content {
	contents := []*genai.Content{genai.NewContentFromParts([]*genai.Part{
		genai.NewPartFromText(user), genai.NewPartFromBytes(in.Marked, "image/png"),
	}, genai.RoleUser)}
	for i, t := range in.Turns {
		call := &genai.Part{FunctionCall: &genai.FunctionCall{Name: t.Call.Name, Args: t.Call.Args}, ThoughtSignature: t.Call.Signature}
		contents = append(contents, genai.NewContentFromParts([]*genai.Part{call}, genai.RoleModel))
		resp := map[string]any{"url": t.After.URL, "result": t.Result}
		if t.Acknowledged {
			resp["safety_acknowledgement"] = "true"
		}
		fr := &genai.FunctionResponse{Name: t.Call.Name, Response: resp}
		if i < len(in.TurnShots) && len(in.TurnShots[i]) > 0 {
			fr.Parts = []*genai.FunctionResponsePart{{InlineData: &genai.FunctionResponseBlob{MIMEType: "image/png", Data: in.TurnShots[i]}}}
		}
		contents = append(contents, genai.NewContentFromParts([]*genai.Part{{FunctionResponse: fr}}, genai.RoleUser))
	}
	return contents
}

// computerUseConfig turns the computer-use tool on with every function but fn excluded.
func computerUseConfig(rc RoleConfig, system, fn string) *genai.GenerateContentConfig {
	excluded := slices.DeleteFunc(slices.Clone(PredefinedFunctions), func(f string) bool { return f == fn })
	cfg := generationConfig(rc, true)
	cfg.SystemInstruction = genai.NewContentFromText(system, genai.RoleUser)
	// Prompt-injection detection on: a page that tells the tool what to do is text to
	// distrust, and the tool's verdict on it comes back as a safety decision, which a
	// person (or --approve, or --unattended refusing) answers like any other.
	detect := true
	cfg.Tools = []*genai.Tool{{ComputerUse: &genai.ComputerUse{Environment: genai.EnvironmentBrowser, ExcludedPredefinedFunctions: excluded,
		EnablePromptInjectionDetection: &detect}}}
	return cfg
}

// functionCall is the answer's first function call and its thought signature, if any.
func functionCall(resp *genai.GenerateContentResponse) (*genai.FunctionCall, []byte) {
	if len(resp.Candidates) == 0 || resp.Candidates[0].Content == nil {
		return nil, nil
	}
	for _, p := range resp.Candidates[0].Content.Parts {
		if p.FunctionCall != nil {
			return p.FunctionCall, p.ThoughtSignature
		}
	}
	return nil, nil
}

// refused is the decision not to act, and why.
func refused(res activities.DecideResult, in ComputerUseInput, reason string) activities.DecideResult {
	res.Reason = reason
	res.Failure = &plan.Feedback{Type: plan.NotVisible, Details: "the computer-use tool did not act: " + reason, ExpectedElement: in.Step.TargetDescription}
	return res
}

// toolDecision checks the tool's call against the step (function fn, the step's text, a
// point on the grid) and maps its point to the screenshot's pixels.
func toolDecision(res activities.DecideResult, in ComputerUseInput, fn string, fc *genai.FunctionCall, sig []byte) activities.DecideResult {
	call := activities.ComputerUseCall{Name: fc.Name, Args: fc.Args, Signature: sig}
	if name := aliases[fc.Name]; name != fn && fc.Name != fn {
		return refused(res, in, fmt.Sprintf("it answered %s, and a %s step can only be done with %s", call, in.Step.Action, fn))
	}
	x, xok := jsnum.Number(fc.Args["x"])
	y, yok := jsnum.Number(fc.Args["y"])
	if !xok || !yok || x < 0 || y < 0 || x >= Grid || y >= Grid {
		return refused(res, in, fmt.Sprintf("%s is not a point on its %d×%d grid", call, Grid, Grid))
	}
	reason := "the computer-use tool answered " + call.String()
	if fn == "type_text_at" {
		text, _ := fc.Args["text"].(string)
		if text != in.Step.Value {
			return refused(res, in, fmt.Sprintf("it would type %q, and the step types %q", text, in.Step.Value))
		}
		if enter, _ := fc.Args["press_enter"].(bool); enter {
			reason += "; Enter is not pressed: the step does not say to"
		}
	}
	px := x / Grid * float64(in.Width)
	py := y / Grid * float64(in.Height)
	res.Decision = &activities.Decision{Point: &[2]float64{math.Round(px), math.Round(py)}, Call: &call}
	if sd, ok := fc.Args["safety_decision"].(map[string]any); ok && sd["decision"] == "require_confirmation" {
		why, _ := sd["explanation"].(string)
		if strings.TrimSpace(why) == "" {
			why = "the tool asked for a person's confirmation and gave no reason"
		}
		res.Decision.Confirm = why
		reason += "; it asks a person to confirm first: " + why
	}
	res.Reason = reason
	return res
}
