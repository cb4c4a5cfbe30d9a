package skills

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/weaviate/weaviate-go-client/v4/weaviate"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/graphql"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/webagent-dev/webagent/activities"
)

// Class is the Weaviate collection of skills.
const Class = "Skill"

// Skill is a plan that reached a goal, kept for goals that mean the same: the contract's
// SkillRecord, which is what the library lists, shows, exports and imports, is the skill
// itself (the plan and the examples are kept in Weaviate as JSON text; see properties).
type Skill = activities.SkillRecord

// Match is a skill found for a goal, with its similarity (1 - cosine distance).
type Match struct {
	Skill      Skill
	Similarity float64
}

// ID returns the skill ID for a template on a site: the same template learned again
// updates the same skill.
func ID(site, template, model string) string {
	return uuid.NewSHA1(uuid.NameSpaceURL, []byte(site+"\x00"+template+"\x00"+model)).String()
}

// Weaviate keeps skills in a Weaviate collection, with vectors supplied by the agent.
type Weaviate struct {
	client *weaviate.Client
	host   string
	mu     sync.Mutex
	ok     bool
}

// NewWeaviate returns the library's store at host (host:port of the REST API). It
// connects on first use, and creates the Skill collection then if it is missing, so that
// a worker starts while Weaviate is down and uses it once it is up.
func NewWeaviate(host string) *Weaviate {
	c, _ := weaviate.NewClient(weaviate.Config{Host: host, Scheme: "http", Timeout: 20 * time.Second})
	return &Weaviate{client: c, host: host}
}

// Ready connects and creates the Skill collection if it is missing; the other methods
// call it on first use.
func (w *Weaviate) Ready(ctx context.Context) error { return w.ready(ctx) }

// ready creates the collection once.
func (w *Weaviate) ready(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ok {
		return nil
	}
	if err := w.ensureClass(ctx); err != nil {
		return err
	}
	w.ok = true
	return nil
}

func (w *Weaviate) ensureClass(ctx context.Context) error {
	ok, err := w.client.Schema().ClassExistenceChecker().WithClassName(Class).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate at %s: %w (is it running? `make up` starts it)", w.host, err)
	}
	if ok {
		return w.migrate(ctx)
	}
	text := func(name, tok string) *models.Property {
		return &models.Property{Name: name, DataType: []string{"text"}, Tokenization: tok}
	}
	class := &models.Class{
		Class:       Class,
		Description: "plans that reached a goal, for reuse by goals that mean the same",
		Vectorizer:  "none",
		Properties: []*models.Property{
			text("goal", "word"), text("goalTemplate", "word"), text("plan", "word"), text("site", "field"),
			{Name: "params", DataType: []string{"text[]"}, Tokenization: "field"}, text("examples", "word"),
			{Name: "successCount", DataType: []string{"int"}}, {Name: "failureCount", DataType: []string{"int"}},
			{Name: "lastUsed", DataType: []string{"date"}}, {Name: "createdAt", DataType: []string{"date"}},
			{Name: "version", DataType: []string{"int"}}, text("embeddingModel", "field"),
			{Name: "disabled", DataType: []string{"boolean"}}, {Name: "modelCalls", DataType: []string{"int"}},
			suspectProperty, countedRunsProperty,
		},
	}
	if err := w.client.Schema().ClassCreator().WithClass(class).Do(ctx); err != nil {
		// Another worker may have created it meanwhile.
		if ok, _ := w.client.Schema().ClassExistenceChecker().WithClassName(Class).Do(ctx); ok {
			return nil
		}
		return fmt.Errorf("create the %s collection: %w", Class, err)
	}
	return nil
}

// suspectProperty and countedRunsProperty came after the first version of the
// collection: migrate adds them.
var (
	suspectProperty     = &models.Property{Name: "suspect", DataType: []string{"boolean"}}
	countedRunsProperty = &models.Property{Name: "countedRuns", DataType: []string{"text[]"}, Tokenization: "field"}
)

// migrate adds the properties a collection made by an earlier version lacks.
func (w *Weaviate) migrate(ctx context.Context) error {
	class, err := w.client.Schema().ClassGetter().WithClassName(Class).Do(ctx)
	if err != nil {
		return fmt.Errorf("read the %s collection: %w", Class, err)
	}
	for _, later := range []*models.Property{suspectProperty, countedRunsProperty} {
		if slices.ContainsFunc(class.Properties, func(p *models.Property) bool { return p.Name == later.Name }) {
			continue
		}
		if err := w.client.Schema().PropertyCreator().WithClassName(Class).WithProperty(later).Do(ctx); err != nil {
			return fmt.Errorf("add %q to the %s collection: %w", later.Name, Class, err)
		}
	}
	return nil
}

// nonNil is a list as Weaviate takes it: empty, never null.
func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

func properties(s Skill) (map[string]any, error) {
	planJSON, err := json.Marshal(s.Plan)
	if err != nil {
		return nil, err
	}
	examples, err := json.Marshal(s.Examples)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"goal": s.Goal, "goalTemplate": s.Template, "plan": string(planJSON), "site": s.Site, "params": nonNil(s.Params),
		"examples": string(examples), "successCount": s.SuccessCount, "failureCount": s.FailureCount,
		"lastUsed": s.LastUsed.UTC().Format(time.RFC3339Nano), "createdAt": s.CreatedAt.UTC().Format(time.RFC3339Nano),
		"version": s.Version, "embeddingModel": s.EmbeddingModel, "disabled": s.Disabled, "modelCalls": s.ModelCalls,
		"suspect": s.Suspect, "countedRuns": nonNil(s.CountedRuns),
	}, nil
}

// stored is a skill as Weaviate returns it: its plan and examples as JSON text, which
// take the keys "plan" and "examples" over the skill's own fields of those names.
type stored struct {
	Skill
	PlanJSON     string `json:"plan"`
	ExamplesJSON string `json:"examples"`
	Additional   struct {
		ID       string  `json:"id"`
		Distance float64 `json:"distance"`
	} `json:"_additional"`
}

func (s stored) skill() (Skill, error) {
	sk := s.Skill
	if sk.ID == "" {
		sk.ID = s.Additional.ID
	}
	if err := json.Unmarshal([]byte(s.PlanJSON), &sk.Plan); err != nil {
		return sk, fmt.Errorf("skill %s: its plan is not valid JSON: %w", sk.ID, err)
	}
	if s.ExamplesJSON != "" {
		_ = json.Unmarshal([]byte(s.ExamplesJSON), &sk.Examples)
	}
	return sk, nil
}

// Put creates or replaces a skill with its vector. Every skill saved — learned, healed or
// imported — passes here, so here it is checked (Check), and its targets read again from
// its descriptions.
func (w *Weaviate) Put(ctx context.Context, s Skill, vector []float32) error {
	if err := Check(s); err != nil {
		return refused(err)
	}
	s.Plan = retarget(s.Plan)
	if err := w.ready(ctx); err != nil {
		return err
	}
	props, err := properties(s)
	if err != nil {
		return err
	}
	exists, err := w.client.Data().Checker().WithClassName(Class).WithID(s.ID).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: %w", err)
	}
	if exists {
		err = w.client.Data().Updater().WithClassName(Class).WithID(s.ID).WithProperties(props).WithVector(vector).Do(ctx)
	} else {
		_, err = w.client.Data().Creator().WithClassName(Class).WithID(s.ID).WithProperties(props).WithVector(vector).Do(ctx)
	}
	if err != nil {
		return fmt.Errorf("save skill %s: %w", s.ID, err)
	}
	return nil
}

// Update merges new counts or state into a stored skill, without touching its vector.
func (w *Weaviate) Update(ctx context.Context, s Skill) error {
	if err := w.ready(ctx); err != nil {
		return err
	}
	props, err := properties(s)
	if err != nil {
		return err
	}
	if err := w.client.Data().Updater().WithMerge().WithClassName(Class).WithID(s.ID).WithProperties(props).Do(ctx); err != nil {
		return fmt.Errorf("update skill %s: %w", s.ID, err)
	}
	return nil
}

// ErrNotFound: no skill with that ID.
var ErrNotFound = errors.New("no such skill")

// Get returns one skill.
func (w *Weaviate) Get(ctx context.Context, id string) (Skill, error) {
	if err := w.ready(ctx); err != nil {
		return Skill{}, err
	}
	objs, err := w.client.Data().ObjectsGetter().WithClassName(Class).WithID(id).Do(ctx)
	if err != nil {
		var ce *fault.WeaviateClientError
		if errors.As(err, &ce) && ce.StatusCode == http.StatusNotFound {
			return Skill{}, fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		return Skill{}, fmt.Errorf("weaviate: %w", err)
	}
	if len(objs) == 0 {
		return Skill{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	b, err := json.Marshal(objs[0].Properties)
	if err != nil {
		return Skill{}, err
	}
	var st stored
	if err := json.Unmarshal(b, &st); err != nil {
		return Skill{}, err
	}
	st.Skill.ID = objs[0].ID.String()
	return st.skill()
}

// Delete removes a skill.
func (w *Weaviate) Delete(ctx context.Context, id string) error {
	if err := w.ready(ctx); err != nil {
		return err
	}
	if _, err := w.Get(ctx, id); err != nil {
		return err
	}
	if err := w.client.Data().Deleter().WithClassName(Class).WithID(id).Do(ctx); err != nil {
		return fmt.Errorf("delete skill %s: %w", id, err)
	}
	return nil
}

var fields = []graphql.Field{
	{Name: "goal"}, {Name: "goalTemplate"}, {Name: "plan"}, {Name: "site"}, {Name: "params"}, {Name: "examples"},
	{Name: "successCount"}, {Name: "failureCount"}, {Name: "lastUsed"}, {Name: "createdAt"}, {Name: "version"},
	{Name: "embeddingModel"}, {Name: "disabled"}, {Name: "modelCalls"}, {Name: "suspect"},
	{Name: "_additional", Fields: []graphql.Field{{Name: "id"}, {Name: "distance"}}},
}

// Nearest returns the enabled skills of a site and an embedding model nearest to a vector.
func (w *Weaviate) Nearest(ctx context.Context, vector []float32, site, model string, limit int) ([]Match, error) {
	if err := w.ready(ctx); err != nil {
		return nil, err
	}
	where := filters.Where().WithOperator(filters.And).WithOperands([]*filters.WhereBuilder{
		filters.Where().WithPath([]string{"site"}).WithOperator(filters.Equal).WithValueText(site),
		filters.Where().WithPath([]string{"embeddingModel"}).WithOperator(filters.Equal).WithValueText(model),
		filters.Where().WithPath([]string{"disabled"}).WithOperator(filters.Equal).WithValueBoolean(false),
	})
	near := w.client.GraphQL().NearVectorArgBuilder().WithVector(vector)
	resp, err := w.client.GraphQL().Get().WithClassName(Class).WithFields(fields...).WithWhere(where).
		WithNearVector(near).WithLimit(limit).Do(ctx)
	if err != nil {
		return nil, fmt.Errorf("weaviate: %w", err)
	}
	sts, err := decode(resp)
	if err != nil {
		return nil, err
	}
	var out []Match
	for _, st := range sts {
		sk, err := st.skill()
		if err != nil {
			return nil, err
		}
		out = append(out, Match{Skill: sk, Similarity: 1 - st.Additional.Distance})
	}
	return out, nil
}

// List returns every skill, most recently used first.
func (w *Weaviate) List(ctx context.Context) ([]Skill, error) {
	if err := w.ready(ctx); err != nil {
		return nil, err
	}
	resp, err := w.client.GraphQL().Get().WithClassName(Class).WithFields(fields...).WithLimit(10000).Do(ctx)
	if err != nil {
		return nil, fmt.Errorf("weaviate: %w", err)
	}
	sts, err := decode(resp)
	if err != nil {
		return nil, err
	}
	out := make([]Skill, 0, len(sts))
	for _, st := range sts {
		sk, err := st.skill()
		if err != nil {
			return nil, err
		}
		out = append(out, sk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastUsed.After(out[j].LastUsed) })
	return out, nil
}

func decode(resp *models.GraphQLResponse) ([]stored, error) {
	if len(resp.Errors) > 0 {
		return nil, fmt.Errorf("weaviate: %s", resp.Errors[0].Message)
	}
	get, _ := resp.Data["Get"].(map[string]any)
	b, err := json.Marshal(get[Class])
	if err != nil {
		return nil, err
	}
	var sts []stored
	if err := json.Unmarshal(b, &sts); err != nil {
		return nil, fmt.Errorf("weaviate answer: %w", err)
	}
	return sts, nil
}
