package driver

import (
	"encoding/json"
)

// decode turns what a page script returned into v, by way of JSON.
func decode(raw any, v any) error {
	b, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
