package testenv

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"
)

// CalibreBrowser sends a calibre content server the requests its web interface's own pages
// send, as a browser on 127.0.0.1 does (no sign-in: the server lets that address change
// the library): the home page and its data (the libraries), the book list and a search
// of it (books-init), a book's details (book-metadata), the metadata editor's "Apply
// changes" (set-fields, with only the fields changed) and a book's "Delete this book"
// confirmed (delete-books). It is how the harness's own test does each goal's effect
// without the agent.
type CalibreBrowser struct {
	c      *Calibre
	loaded []string // the ids of the books the book list loaded, which the editor sends back
}

// CalibreMetadata is a book as the web interface's data has it.
type CalibreMetadata struct {
	Title       string   `json:"title"`
	Authors     []string `json:"authors"`
	Tags        []string `json:"tags"`
	Series      string   `json:"series"`
	SeriesIndex float64  `json:"series_index"`
	Publisher   string   `json:"publisher"`
	Rating      float64  `json:"rating"`
}

// calibreBooks is what books-init answers: the search's result and the metadata of the
// books it shows.
type calibreBooks struct {
	Result struct {
		Total   int   `json:"total_num"`
		BookIDs []int `json:"book_ids"`
	} `json:"search_result"`
	Metadata map[string]CalibreMetadata `json:"metadata"`
}

// Browser is a browser on the instance's home page.
func (c *Calibre) Browser() *CalibreBrowser { return &CalibreBrowser{c: c} }

// Open fetches a page or a piece of data (a path from the root) and returns it; an answer
// other than 200 fails the test.
func (b *CalibreBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	resp, err := http.Get(b.c.URL + path)
	if err != nil {
		t.Fatalf("calibre: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("calibre: GET %s answered %d: %s", path, resp.StatusCode, body)
	}
	return string(body)
}

// Libraries is the home page's list of libraries: id → the name it shows.
func (b *CalibreBrowser) Libraries(t testing.TB) map[string]string {
	t.Helper()
	var init struct {
		Libraries map[string]string `json:"library_map"`
	}
	if err := json.Unmarshal([]byte(b.Open(t, "/interface-data/init")), &init); err != nil {
		t.Fatalf("calibre: the home page's data: %v", err)
	}
	return init.Libraries
}

// Search loads the library's book list as its search box does for query ("" for the whole
// list, newest first, as the list opens) and returns the books it shows, by id, in order.
func (b *CalibreBrowser) Search(t testing.TB, query string) []CalibreBookShown {
	t.Helper()
	q := url.Values{"library_id": {CalibreLibraryID}, "sort": {"timestamp.desc"}}
	if query != "" {
		q.Set("search", query)
	}
	var books calibreBooks
	if err := json.Unmarshal([]byte(b.Open(t, "/interface-data/books-init?"+q.Encode())), &books); err != nil {
		t.Fatalf("calibre: the book list for %q: %v", query, err)
	}
	var shown []CalibreBookShown
	b.loaded = b.loaded[:0]
	for _, id := range books.Result.BookIDs {
		shown = append(shown, CalibreBookShown{ID: id, CalibreMetadata: books.Metadata[strconv.Itoa(id)]})
		b.loaded = append(b.loaded, strconv.Itoa(id))
	}
	return shown
}

// CalibreBookShown is a book of the book list: its id and metadata.
type CalibreBookShown struct {
	ID int
	CalibreMetadata
}

// Book opens a book as a person clicks its cover in the book list shown for query: the id
// of the book titled title there, its details loaded as the page loads them.
func (b *CalibreBrowser) Book(t testing.TB, query, title string) int {
	t.Helper()
	shown := b.Search(t, query)
	i := slices.IndexFunc(shown, func(s CalibreBookShown) bool { return s.Title == title })
	if i < 0 {
		t.Fatalf("calibre: the book list for %q does not show %q: %v", query, title, shown)
	}
	b.Details(t, shown[i].ID)
	return shown[i].ID
}

// Details is a book's metadata as its details page loads it.
func (b *CalibreBrowser) Details(t testing.TB, id int) CalibreMetadata {
	t.Helper()
	var m CalibreMetadata
	raw := b.Open(t, fmt.Sprintf("/interface-data/book-metadata/%d?library_id=%s", id, CalibreLibraryID))
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatalf("calibre: the details of book %d: %v", id, err)
	}
	return m
}

// Apply sends the metadata editor's "Apply changes" for the book id: changes holds only
// the fields edited, by calibre's names (title, authors and tags as lists, series with
// series_index, rating as twice the stars, publisher), as the editor sends them.
func (b *CalibreBrowser) Apply(t testing.TB, id int, changes map[string]any) {
	t.Helper()
	body := map[string]any{"changes": changes, "loaded_book_ids": b.loaded}
	status, out := callJSON(t, http.MethodPost, fmt.Sprintf("%s/cdb/set-fields/%d/%s", b.c.URL, id, CalibreLibraryID), body, nil)
	if status != http.StatusOK {
		t.Fatalf("calibre: Apply changes to book %d answered %d: %s", id, status, out)
	}
}

// Delete sends what "Delete this book" on the book id's details page sends once its "Are
// you sure?" is answered OK.
func (b *CalibreBrowser) Delete(t testing.TB, id int) {
	t.Helper()
	target := fmt.Sprintf("%s/cdb/delete-books/%d/%s?%d", b.c.URL, id, CalibreLibraryID, time.Now().UnixMilli())
	req, err := http.NewRequest(http.MethodPost, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("calibre: delete book %d: %v", id, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("calibre: delete book %d answered %d: %s", id, resp.StatusCode, out)
	}
}
