package testenv

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ZophPhoto is a photo of the seed: its file, title, album, category, people (comma
// separated, as Zoph's CLI takes them), place and when it was taken.
type ZophPhoto struct{ File, Title, Album, Category, People, Place, Date, Time string }

// The seed every instance starts from, besides what Zoph's schema holds (admin, the root
// album, category and place, the "Unknown Person"): a family's holidays and events.
var (
	// ZophAlbums are the seed's albums, under their parent ("Album Root" for the top).
	ZophAlbums = []struct{ Parent, Names string }{
		{"Album Root", "Holidays,Family Events,Best of 2022,Best of 2023"},
		{"Holidays", "Tuscany 2023,Brittany 2022,Tyrol 2024"},
		{"Family Events", "Grandma Rosa's 80th Birthday,Summer Camp 2022,Summer Camp 2023"},
	}
	ZophCategories = "Landscapes,Beaches,Food,Animals,Portraits,Architecture,Sports"
	// ZophPlaces are the seed's places, under their parent, with the city and country
	// their edit page holds (none for a country).
	ZophPlaces = []struct{ Parent, Title, City, Country string }{
		{"World", "Italy", "", ""}, {"World", "France", "", ""}, {"World", "Austria", "", ""}, {"World", "Germany", "", ""},
		{"Italy", "Florence", "Florence", "Italy"}, {"Italy", "Siena", "Siena", "Italy"},
		{"France", "Quiberon", "Quiberon", "France"}, {"Austria", "Innsbruck", "Innsbruck", "Austria"},
		{"Germany", "Munich", "Munich", "Germany"},
	}
	ZophPeople = []string{"Anna Berger", "Thomas Berger", "Lena Berger", "Max Berger", "Rosa Berger", "Paul Keller"}
	ZophPhotos = []ZophPhoto{
		{"IMG_2301.jpg", "Ponte Vecchio", "Tuscany 2023", "Architecture", "Anna Berger,Thomas Berger", "Florence", "2023-07-10", "19:12:04"},
		{"IMG_2302.jpg", "Duomo of Florence", "Tuscany 2023", "Architecture", "", "Florence", "2023-07-11", "10:03:51"},
		{"IMG_2303.jpg", "Gelato break", "Tuscany 2023", "Food", "Lena Berger,Max Berger", "Florence", "2023-07-11", "15:40:22"},
		{"IMG_2304.jpg", "Piazza del Campo", "Tuscany 2023", "Architecture", "", "Siena", "2023-07-13", "11:25:09"},
		{"IMG_2305.jpg", "Sunset over Siena", "Tuscany 2023", "Landscapes", "", "Siena", "2023-07-13", "20:48:33"},
		{"IMG_2306.jpg", "Cypress road", "Tuscany 2023", "Landscapes", "", "Siena", "2023-07-14", "09:17:45"},
		{"IMG_2307.jpg", "Family dinner in Siena", "Tuscany 2023", "Food", "Anna Berger,Thomas Berger,Lena Berger,Max Berger", "Siena", "2023-07-14", "21:02:10"},
		{"IMG_1801.jpg", "Picnic at Plage du Goviro", "Brittany 2022", "Beaches", "Anna Berger,Lena Berger,Max Berger", "Quiberon", "2022-08-03", "13:05:40"},
		{"IMG_1802.jpg", "Cote Sauvage", "Brittany 2022", "Landscapes", "", "Quiberon", "2022-08-04", "18:30:12"},
		{"IMG_1803.jpg", "Crepes for lunch", "Brittany 2022", "Food", "Lena Berger", "Quiberon", "2022-08-05", "12:44:03"},
		{"IMG_1804.jpg", "Sandcastle", "Brittany 2022", "Beaches", "Max Berger", "Quiberon", "2022-08-06", "16:21:57"},
		{"IMG_1805.jpg", "Lighthouse at dusk", "Brittany 2022", "Landscapes", "", "Quiberon", "2022-08-06", "21:15:30"},
		{"IMG_3101.jpg", "First day on skis", "Tyrol 2024", "Sports", "Max Berger", "Innsbruck", "2024-02-12", "10:30:00"},
		{"IMG_3102.jpg", "Nordkette view", "Tyrol 2024", "Landscapes", "", "Innsbruck", "2024-02-13", "12:02:41"},
		{"IMG_3103.jpg", "Snowball fight", "Tyrol 2024", "Sports", "Lena Berger,Max Berger", "Innsbruck", "2024-02-14", "15:55:18"},
		{"IMG_3104.jpg", "Golden Roof", "Tyrol 2024", "Architecture", "Anna Berger", "Innsbruck", "2024-02-15", "11:11:11"},
		{"IMG_2201.jpg", "Birthday cake", "Grandma Rosa's 80th Birthday", "Food", "Rosa Berger", "Munich", "2023-05-14", "15:00:20"},
		{"IMG_2202.jpg", "Grandma with the grandchildren", "Grandma Rosa's 80th Birthday", "Portraits", "Rosa Berger,Lena Berger,Max Berger", "Munich", "2023-05-14", "15:20:45"},
		{"IMG_2203.jpg", "Family portrait", "Grandma Rosa's 80th Birthday", "Portraits", "Anna Berger,Thomas Berger,Lena Berger,Max Berger,Rosa Berger", "Munich", "2023-05-14", "16:05:02"},
		{"IMG_2204.jpg", "Toast to Rosa", "Grandma Rosa's 80th Birthday", "Portraits", "Rosa Berger,Paul Keller", "Munich", "2023-05-14", "18:40:37"},
		{"IMG_1701.jpg", "Campfire", "Summer Camp 2022", "Landscapes", "Max Berger", "", "2022-07-18", "21:30:44"},
		{"IMG_1702.jpg", "Canoe race", "Summer Camp 2022", "Sports", "Max Berger", "", "2022-07-19", "10:45:16"},
		{"IMG_1703.jpg", "Tent village", "Summer Camp 2022", "Landscapes", "", "", "2022-07-20", "08:12:33"},
		{"IMG_2351.jpg", "Climbing wall", "Summer Camp 2023", "Sports", "Lena Berger", "", "2023-07-24", "11:00:05"},
		{"IMG_2352.jpg", "Camp talent show", "Summer Camp 2023", "Portraits", "Lena Berger", "", "2023-07-26", "19:35:50"},
		{"IMG_2353.jpg", "Lake swim", "Summer Camp 2023", "Sports", "Lena Berger,Max Berger", "", "2023-07-27", "14:22:18"},
		{"IMG_2308.jpg", "Olive grove", "Tuscany 2023", "Landscapes", "Thomas Berger", "Siena", "2023-07-15", "08:40:00"},
		{"IMG_1806.jpg", "Seagulls on the pier", "Brittany 2022", "Animals", "", "Quiberon", "2022-08-07", "09:58:27"},
		{"IMG_3105.jpg", "Chamois on the ridge", "Tyrol 2024", "Animals", "", "Innsbruck", "2024-02-16", "13:37:09"},
		{"IMG_2205.jpg", "Rosa's cat Minka", "Grandma Rosa's 80th Birthday", "Animals", "Rosa Berger", "Munich", "2023-05-14", "17:10:58"},
	}
	// ZophBestOf are the photos (by file) the seed also puts in its "Best of" albums.
	ZophBestOf = map[string][]string{
		"Best of 2022": {"IMG_1802.jpg", "IMG_1702.jpg"},
		"Best of 2023": {"IMG_2301.jpg", "IMG_2203.jpg", "IMG_2353.jpg"},
	}
)

// seedAll writes the seed through Zoph's CLI (its --new for the albums, categories, places
// and people, its import for the photos, drawn here as small JPEGs of different colours
// and sizes), sets the places' city and country as their edit page does, saves the
// configuration as its page shows it and keeps what the database holds as the fresh
// state.
func (z *Zoph) seedAll(t testing.TB) {
	t.Helper()
	for _, a := range ZophAlbums {
		z.CLI(t, "--new", "--parent", a.Parent, "--album", a.Names)
	}
	z.CLI(t, "--new", "--parent", "Category Root", "--category", ZophCategories)
	var places []string
	for _, p := range ZophPlaces {
		z.CLI(t, "--new", "--parent", p.Parent, "--location", p.Title)
		if p.City != "" {
			places = append(places, fmt.Sprintf("UPDATE zoph_places SET city = %s, country = %s WHERE title = %s",
				sqlQuote(p.City), sqlQuote(p.Country), sqlQuote(p.Title)))
		}
	}
	z.Exec(t, strings.Join(places, ";\n"))
	z.CLI(t, "--new", "--person", strings.Join(ZophPeople, ","))
	in := filepath.Join(z.root, "camera")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, p := range ZophPhotos {
		file := filepath.Join(in, p.File)
		if err := os.WriteFile(file, zophJPEG(t, i), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"--import", "--copy", "--album", p.Album, "--category", p.Category,
			"--field", "title=" + p.Title, "--field", "date=" + p.Date, "--field", "time=" + p.Time}
		for _, best := range []string{"Best of 2022", "Best of 2023"} {
			for _, f := range ZophBestOf[best] {
				if f == p.File {
					args = append(args, "--album", best)
				}
			}
		}
		if p.People != "" {
			args = append(args, "--person", p.People)
		}
		if p.Place != "" {
			args = append(args, "--location", p.Place)
		}
		z.CLI(t, append(args, file)...)
	}
	// The configuration saved once as its page shows it, as an admin does after an install
	// (so that each setting is stored, not only those set here).
	b := z.Browser()
	b.SignIn(t)
	b.Configure(t, nil)
	z.seed = z.State(t)
	if n := len(z.seed["photos"]); n != len(ZophPhotos) {
		t.Fatalf("zoph: the seed holds %d photos, not %d: %v", n, len(ZophPhotos), z.seed["photos"])
	}
	if n := len(z.seed["albums"]); n != 11 {
		t.Fatalf("zoph: the seed holds %d albums, not 11: %v", n, z.seed["albums"])
	}
	shown := 0
	for _, p := range ZophPhotos {
		if p.People != "" {
			shown += len(strings.Split(p.People, ","))
		}
	}
	if n := len(z.seed["photo_people"]); n != shown {
		t.Fatalf("zoph: the seed's photos show %d people, not %d: %v", n, shown, z.seed["photo_people"])
	}
}

// zophJPEG draws the i-th photo of the seed: a JPEG of a size and colours of its own, a
// gradient from one colour to another with a band across it.
func zophJPEG(t testing.TB, i int) []byte {
	t.Helper()
	sizes := [][2]int{{640, 480}, {800, 600}, {480, 640}, {720, 480}, {600, 600}, {960, 640}}
	w, h := sizes[i%len(sizes)][0], sizes[i%len(sizes)][1]
	from := color.RGBA{uint8(40 + i*53%200), uint8(60 + i*97%180), uint8(30 + i*31%210), 255}
	to := color.RGBA{uint8(255 - i*17%200), uint8(200 - i*41%150), uint8(120 + i*23%130), 255}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			f := float64(x+y) / float64(w+h)
			c := color.RGBA{zophMix(from.R, to.R, f), zophMix(from.G, to.G, f), zophMix(from.B, to.B, f), 255}
			if y > h/3 && y < h/3+h/10 {
				c = color.RGBA{c.B, c.R, c.G, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// zophMix is the colour component f of the way from a to b.
func zophMix(a, b uint8, f float64) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*f) }
