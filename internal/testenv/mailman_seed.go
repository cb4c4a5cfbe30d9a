package testenv

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"testing"
)

// MailmanList is a list of the seed: its name, domain, display name, short description,
// style, and its members (addresses) with the roles they hold beside "member".
type MailmanList struct {
	Name, Domain, DisplayName, Description, Style string
	Members                                       []string
	Moderators                                    []string
}

// ID is the list's id as the core and the web UI's addresses have it (staff.lists.example.org).
func (l MailmanList) ID() string { return l.Name + "." + l.Domain }

// The seed every instance starts from: two domains, eight lists (all owned by admin), eleven
// people subscribed across them, two moderators, one member whose posts are accepted at
// once, one list ban and one global ban.
var (
	// MailmanSeedDomains are the seed's domains: mail host, description.
	MailmanSeedDomains = [][2]string{
		{"lists.example.org", "Example Org's lists"},
		{"lists.example.net", "The Example community's lists"},
	}
	// MailmanSeedPeople are the people of the seed: address, display name.
	MailmanSeedPeople = [][2]string{
		{"ana.lima@example.com", "Ana Lima"},
		{"bruno.costa@example.com", "Bruno Costa"},
		{"carla.mendes@example.com", "Carla Mendes"},
		{"carl.mendel@example.com", "Carl Mendel"},
		{"dmitri.volkov@example.com", "Dmitri Volkov"},
		{"farah.khan@example.com", "Farah Khan"},
		{"george.harris@example.com", "George Harris"},
		{"paul.martin@example.net", "Paul Martin"},
		{"helen.park@example.net", "Helen Park"},
		{"ines.duarte@example.com", "Ines Duarte"},
		{"jonas.weber@example.com", "Jonas Weber"},
	}
	// MailmanSeedLists are the seed's lists.
	MailmanSeedLists = []MailmanList{
		{"announce", "lists.example.org", "Announcements", "Company-wide announcements", "legacy-announce",
			[]string{"ana.lima@example.com", "bruno.costa@example.com", "carla.mendes@example.com", "carl.mendel@example.com",
				"dmitri.volkov@example.com", "farah.khan@example.com", "george.harris@example.com", "ines.duarte@example.com"}, nil},
		{"staff", "lists.example.org", "Staff", "Discussion among all staff", "legacy-default",
			[]string{"ana.lima@example.com", "bruno.costa@example.com", "carla.mendes@example.com", "carl.mendel@example.com",
				"dmitri.volkov@example.com", "farah.khan@example.com", "jonas.weber@example.com"}, []string{"bruno.costa@example.com"}},
		{"support", "lists.example.org", "Support Team", "Customer support coordination", "legacy-default",
			[]string{"ana.lima@example.com", "carla.mendes@example.com", "dmitri.volkov@example.com", "george.harris@example.com"},
			[]string{"george.harris@example.com"}},
		{"support-escalations", "lists.example.org", "Support Escalations", "Escalated customer cases", "private-default",
			[]string{"carla.mendes@example.com", "george.harris@example.com"}, nil},
		{"events-2024", "lists.example.org", "Events 2024", "Planning of the 2024 events", "legacy-default",
			[]string{"ana.lima@example.com", "bruno.costa@example.com", "ines.duarte@example.com"}, nil},
		{"events-2025", "lists.example.org", "Events 2025", "Planning of the 2025 events", "legacy-default",
			[]string{"ana.lima@example.com", "farah.khan@example.com", "jonas.weber@example.com"}, nil},
		{"users", "lists.example.net", "Users", "Community user discussion", "legacy-default",
			[]string{"paul.martin@example.net", "helen.park@example.net", "carla.mendes@example.com"}, nil},
		{"dev", "lists.example.net", "Developers", "Development of the community tools", "legacy-default",
			[]string{"paul.martin@example.net", "helen.park@example.net"}, nil},
	}
	// MailmanSeedBans are the seed's bans: list id ("" for a global ban), address.
	MailmanSeedBans = [][2]string{
		{"support.lists.example.org", "offers@promo-mail.example"},
		{"", "spam@junk-mail.example"},
	}
)

// api calls the core's REST API as the web UI does (its own user), with body as JSON (nil
// for none), and returns the status and the answer.
func (m *Mailman) api(t testing.TB, method, path string, body any) (int, []byte) {
	t.Helper()
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("restadmin:"+mailmanAPIPassword))
	return callJSON(t, method, m.API+path, body, map[string]string{"Authorization": auth})
}

// mustAPI is api that fails the test on an answer of 400 or more.
func (m *Mailman) mustAPI(t testing.TB, method, path string, body any) []byte {
	t.Helper()
	status, out := m.api(t, method, path, body)
	if status >= 400 {
		t.Fatalf("mailman: %s %s answered %d: %s", method, path, status, out)
	}
	return out
}

// seedCore writes the seed through the core's REST API: the domains, the lists with their
// display names and descriptions, admin as each list's owner, the members (subscribed as an
// administrator subscribes them: verified, confirmed and approved, no welcome message), the
// moderators, Farah Khan's posts to Staff accepted at once, and the bans.
func (m *Mailman) seedCore(t testing.TB) {
	t.Helper()
	names := map[string]string{}
	for _, p := range MailmanSeedPeople {
		names[p[0]] = p[1]
	}
	for _, d := range MailmanSeedDomains {
		m.mustAPI(t, "POST", "/domains", map[string]any{"mail_host": d[0], "description": d[1]})
	}
	for _, l := range MailmanSeedLists {
		m.mustAPI(t, "POST", "/lists", map[string]any{"fqdn_listname": l.Name + "@" + l.Domain, "style_name": l.Style})
		m.mustAPI(t, "PATCH", "/lists/"+l.ID()+"/config", map[string]any{"display_name": l.DisplayName, "description": l.Description})
		m.mustAPI(t, "POST", "/members", map[string]any{"list_id": l.ID(), "subscriber": m.Email, "role": "owner"})
		for _, e := range l.Members {
			m.mustAPI(t, "POST", "/members", map[string]any{"list_id": l.ID(), "subscriber": e, "display_name": names[e],
				"pre_verified": true, "pre_confirmed": true, "pre_approved": true, "send_welcome_message": false})
		}
		for _, e := range l.Moderators {
			m.mustAPI(t, "POST", "/members", map[string]any{"list_id": l.ID(), "subscriber": e, "role": "moderator"})
		}
	}
	var farah struct {
		SelfLink string `json:"self_link"`
	}
	if err := json.Unmarshal(m.mustAPI(t, "GET", "/lists/staff.lists.example.org/member/farah.khan@example.com", nil), &farah); err != nil || farah.SelfLink == "" {
		t.Fatalf("mailman: Farah Khan's membership of Staff: %v", err)
	}
	u, _ := url.Parse(farah.SelfLink)
	m.mustAPI(t, "PATCH", u.Path[len("/3.1"):], map[string]any{"moderation_action": "accept"})
	for _, b := range MailmanSeedBans {
		path := "/bans"
		if b[0] != "" {
			path = "/lists/" + b[0] + "/bans"
		}
		m.mustAPI(t, "POST", path, map[string]any{"email": b[1]})
	}
}

// mailmanWebSettings is the Django project's settings module: the package's own
// applications and middleware (as /usr/share/mailman3-web/settings.py has them), with the
// instance's SQLite database, static and search folders, its core's REST API, mail written
// to files, sign-in by user name or address, and no compression of assets (served as they
// are by Django's server).
const mailmanWebSettings = `import os
D = os.environ['MAILMAN_WEB_DIR']
SECRET_KEY = 'held-out-instance-0f3b7c1d9e2a4b6c'
DEBUG = False
ALLOWED_HOSTS = ['*']
SITE_ID = 1
MAILMAN_REST_API_URL = os.environ['MAILMAN_REST_URL']
MAILMAN_REST_API_USER = 'restadmin'
MAILMAN_REST_API_PASS = os.environ['MAILMAN_REST_PASSWORD']
MAILMAN_ARCHIVER_KEY = 'held-out-archiver-key'
MAILMAN_ARCHIVER_FROM = ('127.0.0.1', '::1')
INSTALLED_APPS = (
    'hyperkitty', 'postorius', 'django_mailman3', 'django.contrib.admin', 'django.contrib.auth',
    'django.contrib.contenttypes', 'django.contrib.sessions', 'django.contrib.sites',
    'django.contrib.messages', 'django.contrib.staticfiles', 'rest_framework', 'django_gravatar',
    'compressor', 'haystack', 'django_extensions', 'django_q', 'allauth', 'allauth.account',
    'allauth.socialaccount',
)
MIDDLEWARE = (
    'django.contrib.sessions.middleware.SessionMiddleware',
    'django.middleware.common.CommonMiddleware',
    'django.middleware.csrf.CsrfViewMiddleware',
    'django.middleware.locale.LocaleMiddleware',
    'django.contrib.auth.middleware.AuthenticationMiddleware',
    'django.contrib.messages.middleware.MessageMiddleware',
    'django.middleware.clickjacking.XFrameOptionsMiddleware',
    'django.middleware.security.SecurityMiddleware',
    'django_mailman3.middleware.TimezoneMiddleware',
    'postorius.middleware.PostoriusMiddleware',
)
ROOT_URLCONF = 'urls'
TEMPLATES = [{
    'BACKEND': 'django.template.backends.django.DjangoTemplates',
    'DIRS': [],
    'APP_DIRS': True,
    'OPTIONS': {'context_processors': [
        'django.template.context_processors.debug',
        'django.template.context_processors.i18n',
        'django.template.context_processors.media',
        'django.template.context_processors.static',
        'django.template.context_processors.tz',
        'django.template.context_processors.csrf',
        'django.template.context_processors.request',
        'django.contrib.auth.context_processors.auth',
        'django.contrib.messages.context_processors.messages',
        'django_mailman3.context_processors.common',
        'hyperkitty.context_processors.common',
        'postorius.context_processors.postorius',
    ]},
}]
DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': os.path.join(D, 'web.db')}}
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'
LANGUAGE_CODE = 'en-us'
TIME_ZONE = 'UTC'
USE_I18N = True
USE_L10N = True
USE_TZ = True
STATIC_ROOT = os.path.join(D, 'static')
STATIC_URL = '/mailman3/static/'
STATICFILES_FINDERS = (
    'django.contrib.staticfiles.finders.FileSystemFinder',
    'django.contrib.staticfiles.finders.AppDirectoriesFinder',
    'compressor.finders.CompressorFinder',
)
COMPRESS_ENABLED = False
SESSION_SERIALIZER = 'django.contrib.sessions.serializers.PickleSerializer'
LOGIN_URL = 'account_login'
LOGIN_REDIRECT_URL = 'list_index'
LOGOUT_URL = 'account_logout'
DEFAULT_FROM_EMAIL = 'postorius@lists.example.org'
SERVER_EMAIL = 'root@lists.example.org'
EMAIL_BACKEND = 'django.core.mail.backends.filebased.EmailBackend'
EMAIL_FILE_PATH = os.path.join(D, 'mail')
from django.contrib.messages import constants as messages
MESSAGE_TAGS = {messages.ERROR: 'danger'}
AUTHENTICATION_BACKENDS = (
    'django.contrib.auth.backends.ModelBackend',
    'allauth.account.auth_backends.AuthenticationBackend',
)
ACCOUNT_AUTHENTICATION_METHOD = 'username_email'
ACCOUNT_EMAIL_REQUIRED = True
ACCOUNT_EMAIL_VERIFICATION = 'mandatory'
ACCOUNT_DEFAULT_HTTP_PROTOCOL = 'http'
ACCOUNT_UNIQUE_EMAIL = True
HAYSTACK_CONNECTIONS = {'default': {'ENGINE': 'haystack.backends.whoosh_backend.WhooshEngine',
                                    'PATH': os.path.join(D, 'fulltext_index')}}
Q_CLUSTER = {'timeout': 300, 'retry': 360, 'save_limit': 100, 'orm': 'default', 'poll': 5}
FILTER_VHOST = False
POSTORIUS_TEMPLATE_BASE_URL = 'http://127.0.0.1/'
LOGGING = {'version': 1, 'disable_existing_loggers': False,
           'handlers': {'console': {'class': 'logging.StreamHandler'}},
           'loggers': {'django.request': {'handlers': ['console'], 'level': 'ERROR'}}}
`
