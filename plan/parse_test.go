package plan

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

var demo = []Step{
	{Action: Click, TargetDescription: "New project"},
	{Action: Type, Value: "Apollo", TargetDescription: "Project name"},
	{Action: Select, Value: "High", TargetDescription: "Priority"},
	{Action: Click, TargetDescription: "Create"},
	{Action: Assert, Value: "Apollo"},
}

// parseCases are goals the offline planner reads, and the plans it makes of them.
var parseCases = []struct {
	name string
	goal string
	want []Step
}{
	// An unquoted value and a quoted field, an unquoted field and a quoted value: the quote
	// is the field (or the value) the sentence's shape says, never a pair of its own.
	{"an unquoted value into a quoted field", `type admin into the field labelled "User ID", fill Password with "s3cret"`, []Step{
		{Action: Type, Value: "admin", TargetDescription: `field labelled "User ID"`},
		{Action: Type, Value: "s3cret", TargetDescription: "Password"},
	}},
	{"an unquoted value in a quoted field", `type Team News in the field labelled "Site Title"`, []Step{
		{Action: Type, Value: "Team News", TargetDescription: `field labelled "Site Title"`},
	}},
	{"the field a double-click opened", `double-click "Buy milk", type "Buy oat milk" into the edit field in the row, press Enter`, []Step{
		{Action: DoubleClick, TargetDescription: "Buy milk"},
		{Action: Type, Value: "Buy oat milk", TargetDescription: FocusedField},
		{Action: Press, Key: "Enter"},
	}},
	{"a dialog closed, a tab by its number", `close the dialog, then click on Tab #2`, []Step{
		{Action: Click, TargetDescription: "close in the dialog"},
		{Action: Click, TargetDescription: "Tab #2"},
	}},
	{"commas and then", `Click "New project", type "Apollo" into "Project name", select "High" from "Priority", click "Create", then check that "Apollo" is visible`, demo},
	{"curly quotes and and-then", "Click “New project” and type ‘Apollo’ into “Project name” and then select “High” from “Priority”, click “Create” and verify that “Apollo” is visible", demo},
	{"numbered list", "1. Click \"New project\"\n2. Enter 'Apollo' in 'Project name'\n3) Choose High from Priority\n4. press the \"Create\"\n5. make sure \"Apollo\" is shown", []Step{
		{Action: Click, TargetDescription: "New project"},
		{Action: Type, Value: "Apollo", TargetDescription: "Project name"},
		{Action: Select, Value: "High", TargetDescription: "Priority"},
		{Action: Click, TargetDescription: "Create"},
		{Action: Assert, Value: "Apollo"},
	}},
	{"bullets and unquoted", "- click New project\n- type Apollo into Project name\n- pick Low from Priority\n- tick Private\n- click Create", []Step{
		{Action: Click, TargetDescription: "New project"},
		{Action: Type, Value: "Apollo", TargetDescription: "Project name"},
		{Action: Select, Value: "Low", TargetDescription: "Priority"},
		{Action: Check, Value: "true", TargetDescription: "Private"},
		{Action: Click, TargetDescription: "Create"},
	}},
	{"navigate and keys", "Go to https://example.com/login; fill \"Email\" with \"a@b.co\"; press Enter. Then wait 2 seconds", []Step{
		{Action: Navigate, Value: "https://example.com/login"},
		{Action: Type, Value: "a@b.co", TargetDescription: "Email"},
		{Action: Press, Value: "Enter"},
		{Action: Wait, Value: "2 seconds"},
	}},
	{"open host, scroll, uncheck, chord", "open localhost:8090/projects then scroll down, uncheck 'Private', press ctrl+a in \"Project name\"", []Step{
		{Action: Navigate, Value: "localhost:8090/projects"},
		{Action: Scroll, Value: "down"},
		{Action: Check, Value: "false", TargetDescription: "Private"},
		{Action: Press, Value: "Control+A", TargetDescription: "Project name"},
	}},
	{"press a button is a click", `press the "Save" button and hit Escape`, []Step{
		{Action: Click, TargetDescription: `"Save" button`},
		{Action: Press, Value: "Escape"},
	}},
	{"negative asserts and waits", `wait for "Import" to appear, verify the page does not contain "Error", check that 'Q4-bugs' is not visible, expect "Saved"`, []Step{
		{Action: Wait, TargetDescription: "Import"},
		{Action: Assert, Value: "Error", Negated: true},
		{Action: Assert, Value: "Q4-bugs", Negated: true},
		{Action: Assert, Value: "Saved"},
	}},
	{"quoted text keeps its commas and verbs", `type "click here, then wait" into "Notes", then click "Save and close"`, []Step{
		{Action: Type, Value: "click here, then wait", TargetDescription: "Notes"},
		{Action: Click, TargetDescription: "Save and close"},
	}},
	{"apostrophes are not quotes", `click the user's "Profile" link, go back, reload the page`, []Step{
		{Action: Click, TargetDescription: `user's "Profile" link`},
		{Action: Navigate, Value: "back"},
		{Action: Navigate, Value: "reload"},
	}},
	{"toast assert and extract", `open the "Project actions" menu in the row "Q4-bugs", click "Archive", check that the toast "Project archived" appears, extract the first row's name as "first"`, []Step{
		{Action: Click, TargetDescription: `"Project actions" menu in the row "Q4-bugs"`},
		{Action: Click, TargetDescription: "Archive"},
		{Action: Assert, Value: "Project archived"},
		{Action: Extract, TargetDescription: "first row's name", Value: "first"},
	}},
	{"several values in one sentence", `Enter the username "kanesha" and the password "Xm2" into the text fields and press login`, []Step{
		{Action: Type, Value: "kanesha", TargetDescription: "username"},
		{Action: Type, Value: "Xm2", TargetDescription: "password"},
		{Action: Click, TargetDescription: "login"},
	}},
	{"fill in pairs", `Fill in the email "u@x.io", the name "Ann" and submit`, []Step{
		{Action: Type, Value: "u@x.io", TargetDescription: "email"},
		{Action: Type, Value: "Ann", TargetDescription: "name"},
		{Action: Click, TargetDescription: "Submit"},
	}},
	{"a value named by what it is", `type the text "hello world" into the text area, expand the section "Lorem"`, []Step{
		{Action: Type, Value: "hello world", TargetDescription: "text area"},
		{Action: Click, TargetDescription: `section "Lorem"`},
	}},
	{"a confirmation accepted", `click "Delete draft" and confirm, then check that "Draft deleted" is visible`, []Step{
		{Action: Click, TargetDescription: "Delete draft", AcceptDialog: true},
		{Action: Click, TargetDescription: "Confirm", AnswersDialog: true},
		{Action: Assert, Value: "Draft deleted"},
	}},
	{"a menu path", `Select Jinny>Lynett`, []Step{
		{Action: Hover, TargetDescription: `"Jinny"`, Opens: "Lynett"},
		{Action: Click, TargetDescription: `"Lynett"`},
	}},
	{"a quoted menu path, then more", `open "File" > "Save as" > "PDF" from the menu, then click "Save"`, []Step{
		{Action: Hover, TargetDescription: `"File"`, Opens: "Save as"},
		{Action: Hover, TargetDescription: `"Save as"`, Opens: "PDF"},
		{Action: Click, TargetDescription: `"PDF"`},
		{Action: Click, TargetDescription: "Save"},
	}},
	{"hover", `hover over "Account", then click "Sign out"`, []Step{
		{Action: Hover, TargetDescription: "Account"},
		{Action: Click, TargetDescription: "Sign out"},
	}},
	{"copy and paste", `Copy the text from the 2nd text area below and paste it into the text input, then press Submit.`, []Step{
		{Action: Extract, TargetDescription: "2nd text area below", Value: "copied"},
		{Action: Type, TargetDescription: "text input", Value: "{{copied}}"},
		{Action: Click, TargetDescription: "Submit"},
	}},
	{"scroll within an element", `Scroll to the bottom of the textarea, enter the name "Emile" then press "Cancel"`, []Step{
		{Action: Scroll, TargetDescription: "textarea", Value: "bottom"},
		{Action: Type, TargetDescription: "name", Value: "Emile"},
		{Action: Click, TargetDescription: "Cancel"},
	}},
	{"scroll the page to its end", `scroll to the bottom of the page`, []Step{
		{Action: Scroll, Value: "bottom"},
	}},
	{"placeholders", `type "{{name}}" into "Project name" and click "Create"`, []Step{
		{Action: Type, Value: "{{name}}", TargetDescription: "Project name"},
		{Action: Click, TargetDescription: "Create"},
	}},
}

func TestParse(t *testing.T) {
	tests := parseCases
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.goal)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if err := Validate(got); err != nil {
				t.Fatalf("parsed plan does not validate: %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d steps, want %d:\n%s", len(got), len(tt.want), dump(got))
			}
			for i := range got {
				g, w := got[i], tt.want[i].typed()
				if g.Step != i+1 {
					t.Errorf("step %d numbered %d", i+1, g.Step)
				}
				if g.SemanticRole == "" {
					t.Errorf("step %d has no semantic role", i+1)
				}
				g.Step, g.SemanticRole, g.ExpectedOutcome = 0, "", ""
				if !reflect.DeepEqual(g, w) {
					t.Errorf("step %d:\n got %+v\nwant %+v", i+1, g, w)
				}
			}
		})
	}
}

// idiomCases are everyday phrasings the planner reads as the plain steps they are.
var idiomCases = []struct {
	name string
	goal string
	want []Step
}{
	{"a list of boxes to tick", `Select ZMhn, LU, "Q z" and click Submit.`, []Step{
		{Action: Check, Value: "true", TargetDescription: `the "ZMhn" checkbox`},
		{Action: Check, Value: "true", TargetDescription: `the "LU" checkbox`},
		{Action: Check, Value: "true", TargetDescription: `the "Q z" checkbox`},
		{Action: Click, TargetDescription: "Submit"},
	}},
	{"one value for both of two fields", `Enter the password "kpq" into both text fields and press submit.`, []Step{
		{Action: Type, Value: "kpq", TargetDescription: "the 1st of 2 text field"},
		{Action: Type, Value: "kpq", TargetDescription: "the 2nd of 2 text field"},
		{Action: Click, TargetDescription: "submit"},
	}},
	{"typing into the field the page focused", `double-click "Buy milk", type "Buy oat milk", press Enter`, []Step{
		{Action: DoubleClick, TargetDescription: "Buy milk"},
		{Action: Type, Value: "Buy oat milk", TargetDescription: FocusedField},
		{Action: Press, Value: "Enter"},
	}},
	{"drags along a list and in a direction", `Drag Olwen up by one position, drag "Milk" to the 3rd position, drag Ann to the bottom, drag Bo to the last position, then drag the item right.`, []Step{
		{Action: Drag, TargetDescription: "Olwen", Value: "up by 1 position"},
		{Action: Drag, TargetDescription: "Milk", Value: "to position 3"},
		{Action: Drag, TargetDescription: "Ann", Value: "to the last position"},
		{Action: Drag, TargetDescription: "Bo", Value: "to the last position"},
		{Action: Drag, TargetDescription: "item", Value: "right"},
	}},
	{"an item named by its author, unquoted", `Click the "Share" button on the post by @lacus and then click Submit.`, []Step{
		{Action: Click, TargetDescription: `"Share" button on the post by "@lacus"`},
		{Action: Click, TargetDescription: "Submit"},
	}},
	{"selecting an element's whole text", `Highlight the text in the paragraph below and click submit; select all of the text in "Notes".`, []Step{
		{Action: SelectText, TargetDescription: "paragraph"},
		{Action: Click, TargetDescription: "submit"},
		{Action: SelectText, TargetDescription: "Notes"},
	}},
	{"expand the one collapsed section", `Expand the pie menu below and click on the item labeled "H".`, []Step{
		{Action: Click, TargetDescription: "the collapsed section"},
		{Action: Click, TargetDescription: `item labeled "H"`},
	}},
	{"a menu named is no collapsed section", `Open the main menu, then open the section below.`, []Step{
		{Action: Click, TargetDescription: "main menu"},
		{Action: Click, TargetDescription: "the collapsed section"},
	}},
	{"focus and find-and-click", `Focus into the 3rd input textbox, then find and click on the item labeled "Prev".`, []Step{
		{Action: Click, TargetDescription: "3rd input textbox"},
		{Action: Click, TargetDescription: `item labeled "Prev"`},
	}},
	{"a number with the slider and the spinner", `Select -5 with the slider, select 3 with the spinner, then hit Submit.`, []Step{
		{Action: Drag, TargetDescription: "the slider", Value: "-5"},
		{Action: Type, TargetDescription: "the spinner", Value: "3"},
		{Action: Click, TargetDescription: "Submit"},
	}},
	{"a list sorted by dragging", `Sort the numbers in increasing order, starting with the lowest number at the top of the list. Sort the items in descending order, with the highest number at the top, and click Submit.`, []Step{
		{Action: Drag, TargetDescription: "the list of numbers", Value: "in increasing order"},
		{Action: Drag, TargetDescription: "the list of numbers", Value: "in decreasing order"},
		{Action: Click, TargetDescription: "Submit"},
	}},
	{"scroll an element, then a Submit with no word between", `Scroll the textarea to the bottom of the text hit submit.`, []Step{
		{Action: Scroll, TargetDescription: "textarea", Value: "bottom"},
		{Action: Click, TargetDescription: "submit"},
	}},
}

func TestParseIdioms(t *testing.T) {
	for _, tt := range idiomCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.goal)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d steps, want %d:\n%s", len(got), len(tt.want), dump(got))
			}
			for i, g := range got {
				g.Step, g.SemanticRole, g.ExpectedOutcome = 0, "", ""
				if want := tt.want[i].typed(); !reflect.DeepEqual(g, want) {
					t.Errorf("step %d:\n got %+v\nwant %+v", i+1, g, want)
				}
			}
		})
	}
}

// parseErrorCases are goals the offline planner refuses, with the sentence it names.
var parseErrorCases = []struct {
	goal     string
	index    int
	sentence string
}{
	{"", 1, ""},
	{"Create a project named Apollo in our tracker", 1, "Create a project named Apollo in our tracker"},
	{`Click "New project", then make it look nice`, 2, "make it look nice"},
	{"click \"A\"\nArchive my Q4 bugs", 2, "Archive my Q4 bugs"},
	{`type into`, 1, "type into"},
	// Exact or silent: never a step that types or clicks something else.
	{`Put the code "abc" in all fields and press OK`, 1, `Put the code "abc" in all fields`},
	{`Put the code "abc" in both tables and press OK`, 1, `Put the code "abc" in both tables`},
	{`Type "a" and "b" into "Name"`, 1, `Type "a" and "b" into "Name"`},
	{`Select words similar to "big" and click Submit`, 1, `Select words similar to "big"`},
	{`check each checkbox labelled "x"`, 1, `check each checkbox labelled "x"`},
	{`Fill in the email "u" and the name "p" and continue`, 2, "continue"},
	{`Enter the code "abc"`, 1, `Enter the code "abc"`},
	{`Click the button that best describes the figure below.`, 1, `Click the button that best describes the figure below`},
	{`Click as many moving circles as possible.`, 1, `Click as many moving circles as possible`},
	{`Type the text below into the text field and press Submit.`, 1, `Type the text below into the text field`},
	{`Select green with the color picker and hit Submit.`, 1, `Select green with the color picker`},
	{`Select ZMhn, the blue one and click Submit.`, 1, `Select ZMhn, the blue one`},
	{`Click on the numbers in ascending order.`, 1, `Click on the numbers in ascending order`},
	{`Click on the lime colored box.`, 1, `Click on the lime colored box`},
	{`Click on a rectangle`, 1, `Click on a rectangle`},
	{`Paste it into "Reply"`, 1, `Paste it into "Reply"`},
	{`Expand the pie menu below quickly`, 1, `Expand the pie menu below quickly`},
	{`Select 5 with the color wheel`, 1, `Select 5 with the color wheel`},
	{`Select File > > Save`, 1, `Select File > > Save`},
	{`Select File > the best one`, 1, `Select File > the best one`},
	{`Set the name ""`, 1, `Set the name ""`},
	{`Sort the numbers in increasing order, starting with the highest number at the top of the list.`, 1, `Sort the numbers in increasing order, starting with the highest number at the top of the list`},
	{`Sort the numbers in decreasing order, with the lowest number at the top`, 1, `Sort the numbers in decreasing order, with the lowest number at the top`},
	{`Sort the numbers by colour`, 1, `Sort the numbers by colour`},
}

func TestParseErrors(t *testing.T) {
	tests := parseErrorCases
	for _, tt := range tests {
		t.Run(tt.goal, func(t *testing.T) {
			_, err := Parse(tt.goal)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("want a *ParseError, got %v", err)
			}
			if pe.Index != tt.index || pe.Sentence != tt.sentence {
				t.Errorf("got step %d %q, want step %d %q", pe.Index, pe.Sentence, tt.index, tt.sentence)
			}
			if !strings.Contains(err.Error(), "GEMINI_API_KEY") {
				t.Errorf("the error should say open-ended goals need a Gemini key: %v", err)
			}
		})
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"2": 2 * time.Second, "1.5 seconds": 1500 * time.Millisecond, "500ms": 500 * time.Millisecond, "1 minute": time.Minute} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseDuration("soon"); err == nil {
		t.Error("ParseDuration(soon) should fail")
	}
}

func TestBindAndParams(t *testing.T) {
	steps := []Step{{Step: 1, Action: Type, TargetDescription: "Project name", Value: "{{ name }}"}}
	if err := CheckParams(steps, nil); err == nil || !strings.Contains(err.Error(), "name") {
		t.Fatalf("CheckParams should name the missing parameter, got %v", err)
	}
	if got := steps[0].Bind(map[string]string{"name": "Apollo"}).Value; got != "Apollo" {
		t.Errorf("Bind = %q", got)
	}
}

func dump(steps []Step) string {
	var b strings.Builder
	for _, s := range steps {
		b.WriteString(s.String() + "\n")
	}
	return b.String()
}
