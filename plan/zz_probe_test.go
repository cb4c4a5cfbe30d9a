package plan

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZProbe(t *testing.T) {
	for _, g := range strings.Split(os.Getenv("GOAL"), "\n") {
		steps, err := Parse(g)
		fmt.Println("##", g)
		if err != nil {
			fmt.Println("  ERR", err.Error()[:min(len(err.Error()), 200)])
		}
		for _, s := range steps {
			fmt.Printf("  %s\n", s)
		}
	}
}

func TestZZClauses(t *testing.T) {
	g, _ := rewriteIdioms(os.Getenv("GOAL"))
	fmt.Printf("idioms: %q\n", g)
	m, _ := mask(g)
	m = dropSituations(dropAsides(m))
	for _, c := range splitClauses(dropFindAnd(m)) {
		fmt.Printf("  clause %q\n", c)
	}
}

func TestZZTarget(t *testing.T) {
	for _, d := range strings.Split(os.Getenv("DESC"), "\n") {
		fmt.Printf("%q => %+v  [%s]\n", d, ParseTarget(d), exactTarget(mask(d)))
	}
}
