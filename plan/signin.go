package plan

import (
	"fmt"
	"regexp"
	"strings"
)

// Signing in is written in a few words people share: "log in as admin with the password
// "…"". Those words name no field: the page calls its fields "User Name", "Login",
// "Email" or "Username". What they do name is the page's one sign-in form, and the form
// tells its parts by kind: its one password field, the one text field beside it and its
// one button. A Target says which part (SignIn); the browser finds it in the form that
// holds the page's only password field, and refuses when the page has no such form, or
// when the form's text fields or buttons are not one (a form with two passwords sets a
// password; it signs nobody in).

// The parts of a sign-in form a target names (Target.SignIn).
const (
	SignInUser     = "user"
	SignInPassword = "password"
	SignInButton   = "button"
)

// signInParts are the descriptions the sign-in idiom writes, one per part: the reader
// reads them back as that part, and a person may write them too.
var signInParts = map[string]string{
	"the user name field of the sign-in form": SignInUser,
	"the password field of the sign-in form":  SignInPassword,
	"the button of the sign-in form":          SignInButton,
}

// signInPart is the part a description names, or "" (its "the" may be left out, as the
// reader leaves it out of a step's description).
func signInPart(description string) string {
	d := strings.ToLower(strings.Join(strings.Fields(description), " "))
	if !strings.HasPrefix(d, "the ") {
		d = "the " + d
	}
	return signInParts[d]
}

// signInTarget reads a description of a part of the sign-in form, and ok.
func signInTarget(description string) (Target, bool) {
	part := signInPart(description)
	if part == "" {
		return Target{}, false
	}
	kind := "field"
	if part == SignInButton {
		kind = "button"
	}
	return Target{SignIn: part, Kind: kind}, true
}

// signInDescription is the description of a part: what signInPart reads back.
func signInDescription(part string) string {
	for d, p := range signInParts {
		if p == part {
			return d
		}
	}
	return ""
}

// signInWords are the ways of saying "sign in", and the words before the password.
const (
	signInVerb  = `(?:log\s*(?:in|on)|sign\s*(?:in|on)|login|signin)(?:\s+(?:first|again))?`
	signInValue = `(?:"[^"]+"|[^\s",;]*[^\s",;.!])`
	pwWords     = `(?:the\s+|a\s+|my\s+|his\s+|her\s+|their\s+|your\s+)?(?:(?:server|admin|administrator|master|shared|account|user|login|sign-in|app)\s+)?(?:password|passphrase|pass\s*word)`
)

// signInIdiom reads "log in as admin with the password "x"", "sign in with the user
// name admin and the password "x"" and "log in as admin / "x"" (a user and a password
// written as a pair) as the three steps of a sign-in: the user name into
// the form's text field, the password into its password field, and its button — unless
// the goal names the button next ("… and press GO!"): then that button, as written.
var signInIdiom = idiom{
	name:    "signing in as a user with a password",
	example: `Log in as admin with the password "{{secret:app_password}}".`,
	means: `type "admin" into the user name field of the sign-in form, type "{{secret:app_password}}" into the password field of the sign-in form, ` +
		`click the button of the sign-in form`,
	re: idiomRe(signInVerb + viaLink + signInTo + `\s+(?:(?:as|with\s+(?:the\s+)?(?:user\s*name|user|login|account))\s+(?P<user>` + signInValue + `)` +
		`(?:\s+(?:and\s+|with\s+|using\s+)` + pwWords + `\s+|\s*,\s*(?:with\s+|using\s+)?` + pwWords + `\s+|\s*/\s*)(?P<pw>` + signInValue + `))` + signInPlace + asideLink),
	write: writeSignIn,
}

// signInPlace is the third thing a sign-in form may ask for, said after the user and the
// password: "… to the company brightwater", "… in the database acme" (an accounting app's
// company, a server's database or tenant), typed into the field that noun names.
const signInPlace = `(?:\s+(?:to|into|in|on|at|for)\s+the\s+(?P<place>` + SignInPlaces + `)\s+(?P<placevalue>` + signInValue + `))?`

// SignInPlaces are the names of a sign-in form's field for where the person signs in, as
// alternatives of a pattern: the reader reads "to the company X" by them, and the browser
// knows by them that such a field is not the user's.
const SignInPlaces = "company|database|tenant|domain|organization|organisation|realm|workspace"

// signInFields reads "log in to the Homebridge UI: admin in the Username box, "x" as the
// Password": a sign-in that names its two fields, each given its value, as the fields
// named (never guessed as the form's parts), then the form's button unless the goal names
// it next.
var signInFields = idiom{
	name:    "signing in with the fields named",
	example: `Log in to the app: admin in the Username box, "{{secret:app_password}}" as the Password, then press Continue.`,
	means:   `type "admin" into "Username", type "{{secret:app_password}}" into "Password", then press Continue.`,
	re: idiomRe(signInVerb + `(?:\s+(?:to|on)\s+[^:,.]{1,40}?)?\s*:\s*(?P<user>` + signInValue + `)\s+(?:in|into|as)\s+the\s+(?P<uf>[\pL][\pL ]{0,25}?)(?:\s+(?:box|field))?\s*,\s*(?:and\s+)?` +
		`(?P<pw>` + signInValue + `)\s+(?:in|into|as)\s+the\s+(?P<pf>[\pL][\pL ]{0,25}?)(?:\s+(?:box|field))?`),
	write: func(g map[string]string) (string, string) {
		s := fmt.Sprintf("type %s into %s, type %s into %s", quoteName(g["user"]), quoteName(g["uf"]), quoteName(g["pw"]), quoteName(g["pf"]))
		if !namesItsButton.MatchString(g["tail"]) && !thenItsButton.MatchString(g["tail"]) {
			s += ", click " + signInDescription(SignInButton)
		}
		return s, ""
	},
}

// viaLink is "via the Login link at the top": the control a person clicks to reach the
// sign-in form, clicked first.
const viaLink = `(?:\s+(?:via|through|with|using)\s+the\s+(?P<link>"[^"]+"|[\pL][\pL\pN '/-]{0,30}?)\s+(?:link|button)(?:\s+(?:at|in)\s+the\s+(?:top|bottom|menu|corner)(?:\s+(?:left|right|at\s+the\s+top))?)?)?`

// signInTo is where one signs in, said before who: "sign in to the NZBGet Login box as
// nzbget with the password …", "log in to Gitea as …". The page's one sign-in form is
// where; the words only name it.
const signInTo = `(?:\s+(?:to|into|on)\s+(?:the\s+)?[\pL\pN][\pL\pN '-]{0,30}?)?`

// asideLink is the same said after the sign-in, in brackets: "log in as nora / "…" (the
// Login / Get an account link at the top)".
const asideLink = `(?:\s*\((?:via\s+|through\s+|using\s+)?the\s+(?P<plink>"[^"]+"|[\pL][\pL\pN '/-]{0,30}?)\s+(?:link|button)(?:\s+(?:at|in|on)\s+the\s+[\pL ]{1,30}?)?\))?`

// signInPasswordOnly reads "log in with the password "x"": a sign-in that asks for a
// password alone (a notebook server, a router), typed into the form's password field.
var signInPasswordOnly = idiom{
	name:    "signing in with a password alone",
	example: `Log in with the password "{{secret:app_password}}", then click "Files".`,
	means:   `type "{{secret:app_password}}" into the password field of the sign-in form, click the button of the sign-in form, then click "Files".`,
	re:      idiomRe(signInVerb + viaLink + `\s+(?:with|using)\s+` + pwWords + `\s+(?P<pw>` + signInValue + `)` + asideLink),
	write:   writeSignIn,
}

// namesItsButton is a tail that goes on with a click or a press in the same breath ("…
// and press GO!", ", click Login"): the button the goal signs in with. After "then" the
// click is a step of its own, once signed in.
var namesItsButton = regexp.MustCompile(`(?i)^[\s,;]*(?:and\s+)?(?:click|press|hit|tap|push|submit)\b`)

// thenItsButton is a click after "then" on a button a sign-in form is called by ("…,
// then press Continue", "then click Log In"): the form's own button, named, not a step
// after the sign-in. A sign-in form's button has one of few names.
var thenItsButton = regexp.MustCompile(`(?i)^[\s,;]*(?:and\s+)?then\s+(?:click|press|hit|tap|push)\s+(?:on\s+)?(?:the\s+)?"?(?:continue|log\s*in|login|log\s*on|sign\s*in|signin|sign\s*on|submit|go|enter)\b`)

func writeSignIn(g map[string]string) (string, string) {
	user, pw := strings.TrimSpace(g["user"]), strings.TrimSpace(g["pw"])
	if strings.Trim(pw, `"`) == "" {
		return "", "the sign-in names no password: write it, as in log in as admin with the password \"…\""
	}
	s := fmt.Sprintf("type %s into %s", quoteName(pw), signInDescription(SignInPassword))
	if place := g["place"]; place != "" {
		s += fmt.Sprintf(", type %s into %s", quoteName(g["placevalue"]), quoteName(upperFirst(place)))
	}
	if user != "" {
		s = fmt.Sprintf("type %s into %s, %s", quoteName(user), signInDescription(SignInUser), s)
	}
	if !namesItsButton.MatchString(g["tail"]) && !thenItsButton.MatchString(g["tail"]) {
		s += ", click " + signInDescription(SignInButton)
	}
	if link := strings.TrimSpace(g["link"] + g["plink"]); link != "" {
		s = "click " + quoteName(link) + ", " + s
	}
	return s, ""
}
