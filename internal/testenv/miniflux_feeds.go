package testenv

import (
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"
)

// MinifluxFeed is a feed the test's feed server serves: its path there (Miniflux's Feed
// URL is the server's root and the path), its title as the document gives it, the
// category the seed files it under ("" for a feed the seed does not subscribe to), and
// its entries' titles, newest first.
type MinifluxFeed struct {
	Path, Title, Category string
	Entries               []string
}

// The seed every instance starts from: admin's categories besides the "All" Miniflux makes
// with each user, admin's subscriptions, the entries starred and read, and another user
// (with MinifluxSeedPassword). MinifluxNewFeed is served but not subscribed to.
var (
	MinifluxCategories = []string{"Technology", "Science", "News", "Cooking"}
	MinifluxFeeds      = []MinifluxFeed{
		minifluxFeed("/orbital/atom.xml"), minifluxFeed("/kernel-digest/rss.xml"),
		minifluxFeed("/gazette/feed.xml"), minifluxFeed("/pantry/rss"),
	}
	MinifluxNewFeed = minifluxFeed("/birding/feed.xml")
	MinifluxUsers   = []string{"emma"}
	MinifluxStarred = []string{"SQLite in Production: Lessons from Five Years"}
	MinifluxRead    = []string{"Harbour Festival Returns for Its Fortieth Summer", "A Gentle Introduction to eBPF"}
)

// MinifluxSeedPassword is the seed's other users' password.
const MinifluxSeedPassword = "Second-Reader-55"

// minifluxDoc is one feed document: its title, the seed's category for it ("" for none),
// its site, description, whether it is Atom (else RSS 2.0), and its entries, newest first.
type minifluxDoc struct {
	title, category, site, about string
	atom                         bool
	items                        []minifluxItem
}

// minifluxItem is an entry: the last part of its address, title, date and summary.
type minifluxItem struct{ slug, title, date, text string }

var minifluxDocs = map[string]minifluxDoc{
	"/orbital/atom.xml": {"Orbital Notes", "Science", "/orbital/", "Plain-language notes on astronomy and planetary science.", true, []minifluxItem{
		{"perseverance-jezero", "What the Perseverance Rover Found in Jezero Crater", "2025-03-18T08:30:00Z", "Three years of sampling an ancient river delta, and why the cores waiting for a ride home matter more than any single picture."},
		{"winter-constellations", "A Field Guide to the Winter Constellations", "2025-02-02T19:00:00Z", "Orion, Taurus and the Winter Hexagon: how to find them from a city balcony with nothing but your eyes and a little patience."},
		{"moon-drift", "Why the Moon Is Slowly Drifting Away", "2025-01-09T10:15:00Z", "Every year the Moon moves about 3.8 centimetres further from Earth. Tides are to blame, and the day is getting longer because of it."},
	}},
	"/kernel-digest/rss.xml": {"The Kernel Digest", "Technology", "/kernel-digest/", "A weekly digest of systems programming, databases and open source.", false, []minifluxItem{
		{"go-iterators", "Understanding Go's Range-over-Func Iterators", "2025-03-21T07:00:00Z", "Range-over-func iterators landed in Go 1.23. Here is what iter.Seq is, when to reach for it, and when a plain slice is still the better answer."},
		{"sqlite-production", "SQLite in Production: Lessons from Five Years", "2025-03-07T07:00:00Z", "WAL mode, busy timeouts, backups with VACUUM INTO and the one index we wish we had added on day one."},
		{"ebpf-intro", "A Gentle Introduction to eBPF", "2025-02-14T07:00:00Z", "Small programs that run safely inside the Linux kernel: what they can observe, how the verifier keeps them honest, and where to start."},
	}},
	"/gazette/feed.xml": {"Harbour City Gazette", "News", "/gazette/", "Local news from Harbour City and the bay.", false, []minifluxItem{
		{"tram-line", "City Council Approves New Tram Line to the Docks", "2025-03-24T16:45:00Z", "The eastern extension will link the central station with the old docks by 2028, the council decided after a four-hour debate."},
		{"library-hours", "Central Library Extends Its Weekend Opening Hours", "2025-03-12T09:20:00Z", "From April the Central Library opens until 8 pm on Saturdays and from noon on Sundays, after a petition signed by 3,000 residents."},
		{"harbour-festival", "Harbour Festival Returns for Its Fortieth Summer", "2025-02-27T11:00:00Z", "Tall ships, a night market and fireworks over the bay: the festival's programme for its fortieth year is out."},
	}},
	"/pantry/rss": {"The Weekday Pantry", "All", "/pantry/", "Quick dinners from what is already in the cupboard.", false, []minifluxItem{
		{"mushroom-risotto", "A Weeknight Mushroom Risotto", "2025-03-20T17:30:00Z", "Thirty minutes, one pot and a handful of dried porcini: a risotto that does not need you to stand and stir the whole time."},
		{"fresh-herbs", "How to Keep Herbs Fresh for Two Weeks", "2025-03-06T17:30:00Z", "Soft herbs in a jar of water, hard herbs wrapped in a damp towel: the two methods that actually work in a home fridge."},
		{"lemon-chickpeas", "One-Pan Lemon Chickpeas with Spinach", "2025-02-20T17:30:00Z", "A tin of chickpeas, a lemon and a bag of spinach become dinner for two in under twenty minutes."},
	}},
	"/birding/feed.xml": {"Backyard Birding Journal", "", "/birding/", "Notes from a small garden's bird feeders through the seasons.", false, []minifluxItem{
		{"spring-migrants", "The First Spring Migrants Are Back", "2025-03-22T06:40:00Z", "Chiffchaffs are singing again at the end of the garden, a week earlier than last year."},
		{"feeder-hygiene", "Keeping Bird Feeders Clean", "2025-03-01T06:40:00Z", "Why feeders should be scrubbed every fortnight, and the simple routine that makes it a five-minute job."},
		{"goldfinches", "Goldfinches and Nyjer Seed", "2025-02-08T06:40:00Z", "Goldfinches love the tiny black nyjer seeds, but only from a feeder with small enough ports."},
	}},
}

// minifluxFeed is the seed's description of the document at path.
func minifluxFeed(path string) MinifluxFeed {
	d := minifluxDocs[path]
	f := MinifluxFeed{Path: path, Title: d.title, Category: d.category}
	for _, it := range d.items {
		f.Entries = append(f.Entries, it.title)
	}
	return f
}

// minifluxFeedHandler serves each feed document at its path, its links made absolute with
// the address the request came to; anything else is 404 (a site's icon among them).
func minifluxFeedHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := minifluxDocs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		base := "http://" + r.Host
		if d.atom {
			w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
			_, _ = w.Write([]byte(minifluxAtom(d, base, r.URL.Path)))
			return
		}
		w.Header().Set("Content-Type", "application/rss+xml; charset=utf-8")
		_, _ = w.Write([]byte(minifluxRSS(d, base, r.URL.Path)))
	})
}

// minifluxRSS is d as an RSS 2.0 document.
func minifluxRSS(d minifluxDoc, base, self string) string {
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
<title>%s</title><link>%s</link><description>%s</description><language>en</language>
<atom:link href="%s" rel="self" type="application/rss+xml"/>
`, e(d.title), base+d.site, e(d.about), base+self)
	for _, it := range d.items {
		at, _ := time.Parse(time.RFC3339, it.date)
		link := base + d.site + it.slug
		fmt.Fprintf(&b, "<item><title>%s</title><link>%s</link><guid isPermaLink=\"true\">%s</guid><pubDate>%s</pubDate><description>%s</description></item>\n",
			e(it.title), link, link, at.Format(time.RFC1123Z), e("<p>"+e(it.text)+"</p>"))
	}
	b.WriteString("</channel></rss>\n")
	return b.String()
}

// minifluxAtom is d as an Atom document.
func minifluxAtom(d minifluxDoc, base, self string) string {
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>%s</title><subtitle>%s</subtitle><id>%s</id><updated>%s</updated>
<link href="%s"/><link rel="self" href="%s"/><author><name>Orbital Notes</name></author>
`, e(d.title), e(d.about), base+d.site, d.items[0].date, base+d.site, base+self)
	for _, it := range d.items {
		link := base + d.site + it.slug
		fmt.Fprintf(&b, "<entry><title>%s</title><link href=\"%s\"/><id>%s</id><updated>%s</updated><published>%s</published><summary>%s</summary></entry>\n",
			e(it.title), link, link, it.date, it.date, e(it.text))
	}
	b.WriteString("</feed>\n")
	return b.String()
}
