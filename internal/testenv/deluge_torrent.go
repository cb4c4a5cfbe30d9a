package testenv

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// DelugeSeedTorrent is one torrent every instance starts with: a single file of Size bytes
// named Name. With Data its file is in the download folder before the torrent is added, so
// Deluge checks it and seeds it; without, the torrent waits for peers at 0%.
type DelugeSeedTorrent struct {
	Name string
	Size int
	Data bool
}

// DelugeSeed are the torrents every instance starts with, in the order they are added: the
// downloading ones take the queue's places in this order (the fourth waits, Queued, while
// three download at once, Deluge's default).
var DelugeSeed = []DelugeSeedTorrent{
	{Name: "debian-12.5.0-amd64-netinst.iso", Size: 96 << 10, Data: true},
	{Name: "archlinux-2024.05.01-x86_64.iso", Size: 64 << 10, Data: true},
	{Name: "big-buck-bunny-1080p.mp4", Size: 128 << 10},
	{Name: "ubuntu-24.04-desktop-amd64.iso", Size: 160 << 10},
	{Name: "fedora-workstation-40-x86_64.iso", Size: 112 << 10},
	{Name: "sintel-2010-4k.mkv", Size: 80 << 10},
}

// delugePieceLength is the seed torrents' piece length (16 KiB, libtorrent's smallest).
const delugePieceLength = 16 << 10

// delugeContent is the seed file's bytes: the same for a name in every instance (a chain
// of SHA-256 sums from the name), so each seed torrent has one info hash everywhere.
func delugeContent(name string, size int) []byte {
	out := make([]byte, 0, size+sha256.Size)
	sum := sha256.Sum256([]byte(name))
	for len(out) < size {
		out = append(out, sum[:]...)
		sum = sha256.Sum256(sum[:])
	}
	return out[:size]
}

// DelugeMetainfo is the .torrent file of a single file named name holding data, with no
// tracker (as a torrent found through DHT is), and its info hash in hex.
func DelugeMetainfo(name string, data []byte) ([]byte, string) {
	var pieces []byte
	for i := 0; i < len(data); i += delugePieceLength {
		sum := sha1.Sum(data[i:min(i+delugePieceLength, len(data))])
		pieces = append(pieces, sum[:]...)
	}
	info := map[string]any{"name": name, "length": len(data), "piece length": delugePieceLength, "pieces": string(pieces)}
	hash := sha1.Sum(bencode(info))
	meta := bencode(map[string]any{"info": info, "created by": "mktorrent 1.1", "creation date": 1714521600})
	return meta, hex.EncodeToString(hash[:])
}

// DelugeSeedHash is the info hash of the seed torrent named name ("" when the seed has none).
func DelugeSeedHash(name string) string {
	for _, s := range DelugeSeed {
		if s.Name == name {
			_, hash := DelugeMetainfo(s.Name, delugeContent(s.Name, s.Size))
			return hash
		}
	}
	return ""
}

// delugeSeedFiles writes the files of the seed torrents that have their data into dir and
// returns every seed torrent's .torrent file by name.
func delugeSeedFiles(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, s := range DelugeSeed {
		data := delugeContent(s.Name, s.Size)
		if s.Data {
			if err := os.WriteFile(filepath.Join(dir, s.Name), data, 0o644); err != nil {
				return nil, err
			}
		}
		out[s.Name], _ = DelugeMetainfo(s.Name, data)
	}
	return out, nil
}

// bencode encodes strings, integers, lists and dictionaries (keys sorted) as BitTorrent's
// metainfo files do.
func bencode(v any) []byte {
	var b bytes.Buffer
	var enc func(v any)
	enc = func(v any) {
		switch x := v.(type) {
		case string:
			fmt.Fprintf(&b, "%d:%s", len(x), x)
		case int:
			fmt.Fprintf(&b, "i%de", x)
		case []any:
			b.WriteByte('l')
			for _, e := range x {
				enc(e)
			}
			b.WriteByte('e')
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			b.WriteByte('d')
			for _, k := range keys {
				enc(k)
				enc(x[k])
			}
			b.WriteByte('e')
		default:
			panic(fmt.Sprintf("bencode: %T", v))
		}
	}
	enc(v)
	return b.Bytes()
}
