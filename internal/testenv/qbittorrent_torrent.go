package testenv

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// qbtPieceLength is the seed torrents' piece length (16 KiB, libtorrent's smallest).
const qbtPieceLength = 16 << 10

// qbtContent is a seed file's bytes: the same for a name in every instance (a chain of
// SHA-256 sums from the name), so each seed torrent has one info hash everywhere.
func qbtContent(name string, size int) []byte {
	out := make([]byte, 0, size+sha256.Size)
	sum := sha256.Sum256([]byte("qbittorrent seed " + name))
	for len(out) < size {
		out = append(out, sum[:]...)
		sum = sha256.Sum256(sum[:])
	}
	return out[:size]
}

// qbtMetainfo is the .torrent file of a single file named name holding data, with no
// tracker (as a torrent found through DHT is), and its info hash in hex.
func qbtMetainfo(name string, data []byte) ([]byte, string) {
	var pieces []byte
	for i := 0; i < len(data); i += qbtPieceLength {
		sum := sha1.Sum(data[i:min(i+qbtPieceLength, len(data))])
		pieces = append(pieces, sum[:]...)
	}
	info := map[string]any{"name": name, "length": len(data), "piece length": qbtPieceLength, "pieces": string(pieces)}
	hash := sha1.Sum(bencode(info))
	meta := bencode(map[string]any{"info": info, "created by": "mktorrent 1.1", "creation date": 1717200000})
	return meta, hex.EncodeToString(hash[:])
}

// QBittorrentSeedHash is the info hash of the seed torrent named name ("" when the seed has
// none): how the Web API names a torrent.
func QBittorrentSeedHash(name string) string {
	for _, s := range QBittorrentSeed {
		if s.Name == name {
			_, hash := qbtMetainfo(s.Name, qbtContent(s.Name, s.Size))
			return hash
		}
	}
	return ""
}

// qbtSeedFiles writes the files of the seed torrents that have their data into dir and
// returns every seed torrent's .torrent file by name.
func qbtSeedFiles(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, s := range QBittorrentSeed {
		data := qbtContent(s.Name, s.Size)
		if s.Data {
			if err := os.WriteFile(filepath.Join(dir, s.Name), data, 0o644); err != nil {
				return nil, err
			}
		}
		out[s.Name], _ = qbtMetainfo(s.Name, data)
	}
	return out, nil
}
