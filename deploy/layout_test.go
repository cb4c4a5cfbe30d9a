package deploy_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxLines is the longest a non-test Go file may be: a file says one thing.
const maxLines = 400

// maxFuncLines is the longest a non-test function may be, from its func line to its
// closing brace: a function does one thing, and reads on one screen.
const maxFuncLines = 80

// TestFilesAreShort keeps every non-test Go file at most maxLines long.
func TestFilesAreShort(t *testing.T) {
	err := walkSources(func(path string) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		n := 0
		for sc := bufio.NewScanner(f); sc.Scan(); {
			n++
		}
		if n > maxLines {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s has %d lines (at most %d): split it by what its parts are about", rel, n, maxLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFunctionsAreShort keeps every non-test function at most maxFuncLines long.
func TestFunctionsAreShort(t *testing.T) {
	fset := token.NewFileSet()
	err := walkSources(func(path string) error {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			from, to := fset.Position(fd.Pos()), fset.Position(fd.End())
			if n := to.Line - from.Line + 1; n > maxFuncLines {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d %s has %d lines (at most %d): split it into the steps it takes", rel, from.Line, fd.Name.Name, n, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// walkSources calls fn with every non-test Go file of the project.
func walkSources(fn func(path string) error) error {
	return filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		return fn(path)
	})
}

// TestContractNeedsNoImplementation checks that the workflow and the starter depend on
// the activities' contract only, never on the libraries that implement it.
func TestContractNeedsNoImplementation(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./workflows", "./starter")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, lib := range []string{"github.com/playwright-community/playwright-go", "google.golang.org/genai", "github.com/weaviate/weaviate-go-client", "github.com/minio/minio-go"} {
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, lib) {
				t.Errorf("the workflow or the starter depends on %s (through %s): they must import the contract (package activities) only", lib, dep)
				break
			}
		}
	}
}

// TestDriverNeedsNoTemporal keeps the page driver (activities/browser/driver and any
// package under it) free of the Temporal SDK and of the object store's client, through
// any of its imports, and the Temporal SDK out of every package under activities/browser
// but the adapter itself: the driver runs without a worker, and the adapter is the one
// place that knows Temporal.
func TestDriverNeedsNoTemporal(t *testing.T) {
	const adapter = "github.com/webagent-dev/webagent/activities/browser"
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./activities/browser/...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	drivers := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		forbidden := []string{"go.temporal.io/sdk"}
		if pkg == adapter+"/driver" || strings.HasPrefix(pkg, adapter+"/driver/") {
			drivers++
			forbidden = append(forbidden, "github.com/minio/minio-go")
		} else if pkg == adapter {
			continue
		}
		for _, lib := range forbidden {
			for _, dep := range strings.Fields(deps) {
				if dep == lib || strings.HasPrefix(dep, lib+"/") {
					t.Errorf("%s depends on %s: only the adapter (%s) may know Temporal, and the driver no object store", pkg, dep, adapter)
					break
				}
			}
		}
	}
	if drivers == 0 {
		t.Errorf("no package %s/driver: the page driver must be apart from the adapter", adapter)
	}
}
