package activities

// Error types that cross into the workflow, which decides on them (temporal
// ApplicationError types).
const (
	// ErrSessionLost: the worker holds no browser for the session (it restarted, or the
	// browser died). The workflow opens a new browser and restores the run's state.
	ErrSessionLost = "SessionLost"
	// ErrGoalNotUnderstood: the offline planner cannot read the goal and no model is
	// configured on the workers.
	ErrGoalNotUnderstood = "GoalNotUnderstood"
	// ErrBadInput: the input cannot work however often it is retried.
	ErrBadInput = "BadInput"
	// ErrBrowserLost: the run lost its browser more often than its limit allows.
	ErrBrowserLost = "BrowserLost"
	// ErrSkillNotFound: no skill has the id asked for.
	ErrSkillNotFound = "SkillNotFound"
	// ErrNoSkillsLibrary: the worker has no skills library configured.
	ErrNoSkillsLibrary = "NoSkillsLibrary"
	// ErrSecretNotGranted: the run names a secret the worker's operator does not grant
	// (or not in the form it is used).
	ErrSecretNotGranted = "SecretNotGranted"
	// ErrSiteBlocked: the start URL is outside the run's sites, or an internal address the
	// worker's operator does not grant.
	ErrSiteBlocked = "SiteBlocked"
	// ErrNotYourSession: the run asked a worker for a browser session another workflow
	// opened; the worker serves a session only to the workflow that opened it.
	ErrNotYourSession = "NotYourSession"
)

// Error types of model calls, for retry policies and for people reading a failed run.
const (
	// ErrModelBadRequest: the request itself is wrong; retrying cannot help.
	ErrModelBadRequest = "ModelBadRequest"
	// ErrModelAuth: the key or credentials were refused.
	ErrModelAuth = "ModelAuth"
	// ErrModelNotFound: no such model.
	ErrModelNotFound = "ModelNotFound"
	// ErrModelSafetyBlock: the prompt or the answer was blocked.
	ErrModelSafetyBlock = "ModelSafetyBlock"
	// ErrModelInvalidOutput: the answer stayed invalid after the repairs.
	ErrModelInvalidOutput = "ModelInvalidOutput"
	// ErrModelRateLimited: 429; retried after the delay the server asks for.
	ErrModelRateLimited = "ModelRateLimited"
	// ErrModelUnavailable: 5xx or a timeout; retried with backoff.
	ErrModelUnavailable = "ModelUnavailable"
	// ErrModelBudget: the run's model budget (calls, tokens or cost) ran out inside an
	// activity, before a call it would have made; a retry would spend past it, and the run ends.
	ErrModelBudget = "ModelBudget"
)

// ModelNonRetryable lists the model error types that no retry can fix.
var ModelNonRetryable = []string{ErrModelBadRequest, ErrModelAuth, ErrModelNotFound, ErrModelSafetyBlock, ErrModelInvalidOutput, ErrModelBudget}

// ModelFatal lists the model error types that mean the model will not work at all
// (credentials, a missing model, a malformed request): nothing that needs it can.
var ModelFatal = []string{ErrModelAuth, ErrModelNotFound, ErrModelBadRequest, ErrModelBudget}
