import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64Images, builtinRulesId, createRedactor, hintFinder, REDACTION_HINTS } from "../../../src/core/digest/redact";
import { ALNUM, B64, B64URL, DIGITS, HEX, LOWER, tokenGenerator, UPPER } from "./seeded-tokens";

/** The built-in rules, as the sync applies them when no pattern is added. */
const builtIn = createRedactor();
const redactSecrets = (text: string) => builtIn.redact(text);

// Every token below is synthetic (see `seeded-tokens`).
const gen = tokenGenerator(0x5eed);

const b64 = (text: string): string => Buffer.from(text).toString("base64");

const t = {
	anthropic: "sk-ant-" + "api03-" + gen(B64URL, 93) + "AA",
	anthropicAdmin: "sk-ant-" + "admin01-" + gen(B64URL, 93) + "AA",
	openaiLegacy: "sk-" + gen(ALNUM, 48),
	openaiProject: "sk-" + "proj-" + gen(B64URL, 156),
	openaiService: "sk-" + "svcacct-" + gen(B64URL, 120),
	awsAccess: "AKIA" + gen(UPPER + "234567", 16),
	awsSession: "ASIA" + gen(UPPER + "234567", 16),
	awsSecret: gen(B64, 40),
	ghp: "ghp" + "_" + gen(ALNUM, 36),
	gho: "gho" + "_" + gen(ALNUM, 36),
	ghs: "ghs" + "_" + gen(ALNUM, 36),
	ghu: "ghu" + "_" + gen(ALNUM, 36),
	githubPat: "github" + "_pat_" + gen(ALNUM, 22) + "_" + gen(ALNUM, 59),
	glpat: "glpat" + "-" + gen(B64URL, 20),
	gldt: "gldt" + "-" + gen(B64URL, 20),
	glrt: "glrt" + "-" + gen(B64URL, 20),
	xoxb: "xoxb" + "-" + gen(DIGITS, 12) + "-" + gen(DIGITS, 13) + "-" + gen(ALNUM, 24),
	xoxp: "xoxp" + "-" + gen(DIGITS, 12) + "-" + gen(DIGITS, 12) + "-" + gen(DIGITS, 13) + "-" + gen(HEX, 32),
	xapp: "xapp" + "-1-" + gen(UPPER + DIGITS, 11) + "-" + gen(DIGITS, 13) + "-" + gen(HEX, 64),
	slackHookPath: "T" + gen(UPPER + DIGITS, 8) + "/B" + gen(UPPER + DIGITS, 8) + "/" + gen(ALNUM, 24),
	stripeSecret: "sk" + "_live_" + gen(ALNUM, 99),
	stripeTest: "sk" + "_test_" + gen(ALNUM, 99),
	stripeRestricted: "rk" + "_live_" + gen(ALNUM, 99),
	stripePublishable: "pk" + "_test_" + gen(ALNUM, 99),
	whsec: "whsec" + "_" + gen(ALNUM, 32),
	google: "AIza" + gen(B64URL, 35),
	ya29: "ya29" + "." + gen(B64URL, 150),
	gocspx: "GOCSPX" + "-" + gen(B64URL, 28),
	npm: "npm" + "_" + gen(ALNUM, 36),
	pypi: "pypi" + "-AgEIcHlwaS5vcmc" + gen(B64URL, 150),
	hf: "hf" + "_" + gen(UPPER + LOWER, 34),
	sendgrid: "SG" + "." + gen(B64URL, 22) + "." + gen(B64URL, 43),
	twilio: "SK" + gen(HEX, 32),
	mailgun: "key" + "-" + gen(HEX, 32),
	shopify: "shpat" + "_" + gen(HEX, 32),
	digitalocean: "dop" + "_v1_" + gen(HEX, 64),
	openrouter: "sk-" + "or-v1-" + gen(HEX, 64),
	deepseek: "sk-" + gen(HEX, 32),
	groq: "gsk" + "_" + gen(ALNUM, 52),
	xai: "xai" + "-" + gen(ALNUM, 80),
	perplexity: "pplx" + "-" + gen(ALNUM, 48),
	replicate: "r8" + "_" + gen(ALNUM, 37),
	linear: "lin" + "_api_" + gen(ALNUM, 40),
	notion: "ntn" + "_" + gen(DIGITS, 11) + gen(ALNUM, 35),
	supabase: "sbp" + "_" + gen(HEX, 40),
	sentry: "sntryu" + "_" + gen(HEX, 64),
	grafana: "glsa" + "_" + gen(ALNUM, 32) + "_" + gen(HEX, 8),
	vault: "hvs" + "." + gen(B64URL, 90),
	postman: "PMAK" + "-" + gen(HEX, 24) + "-" + gen(HEX, 34),
	newrelic: "NRAK" + "-" + gen(UPPER + DIGITS, 27),
	atlassian: "ATATT3" + gen(B64URL, 186),
	databricks: "dapi" + gen(HEX, 32),
	doppler: "dp" + ".pt." + gen(ALNUM, 43),
	pulumi: "pul" + "-" + gen(HEX, 40),
	fly: "fo1" + "_" + gen(B64URL, 43),
	cloudflareOrigin: "v1.0-" + gen(HEX, 24) + "-" + gen(HEX, 146),
	telegram: gen(DIGITS, 10) + ":AA" + gen(B64URL, 33),
	// The bot's user id in base64 (as Discord makes it), then a time and an HMAC.
	discord: Buffer.from("1" + gen(DIGITS, 18)).toString("base64url") + "." + gen(B64URL, 6) + "." + gen(B64URL, 38),
	kubeKey: gen(B64, 400) + "=",
	azure: gen(B64, 86) + "==",
	jwt: "eyJ" + gen(B64URL, 33) + ".eyJ" + gen(B64URL, 120) + "." + gen(B64URL, 43),
	bearer: gen(B64URL, 40),
	cryptHash: "$6$" + gen(ALNUM, 16) + "$" + gen(ALNUM + "./", 86),
	uuid: [8, 4, 4, 4, 12].map((n) => gen(HEX, n)).join("-"),
	basic: gen(B64, 30) + "==",
	password: "P4ss-" + gen(ALNUM, 12),
	genericSecret: gen(ALNUM, 32),
	// Base64 as a Kubernetes secret, a Docker config or a CI variable holds a credential: built from its decoded text.
	dockerConfig: b64(`{"auths":{"ghcr.io":{"auth":"${b64(`octocat:${"ghp" + "_" + gen(ALNUM, 36)}`)}"}}}`),
	databaseUrl: b64(`postgres://app:${gen(ALNUM, 16)}@db.internal:5432/app`),
	serviceAccount: b64(`{\n  "type": "service_account",\n  "private_key_id": "${gen(HEX, 40)}",\n  "client_secret": "${gen(ALNUM, 32)}"\n}\n`),
	envFile: b64(`DB_HOST=db\nDB_PASSWORD=${gen(ALNUM, 16)}\n`),
	pemBase64: b64(`-----BEGIN RSA PRIVATE KEY-----\n${gen(B64, 64)}\n${gen(B64, 64)}\n-----END RSA PRIVATE KEY-----\n`),
	basicCredentials: b64(`deploy:${gen(ALNUM, 14)}`),
	pemBody: [gen(B64, 64), gen(B64, 64), gen(B64, 64), gen(B64, 20) + "=="],
	base64url: `${gen(ALNUM, 14)}-${gen(ALNUM, 14)}_${gen(ALNUM, 14)}`,
	sha256: gen(HEX, 64),
};

const m = (kind: string): string => `[redacted:${kind}]`;

/** [kind, input, expected output]: a real-format token in a realistic context. */
const SECRETS: [string, string, string][] = [
	["anthropic-api-key", `export ANTHROPIC_API_KEY=${t.anthropic}\n`, `export ANTHROPIC_API_KEY=${m("anthropic-api-key")}\n`],
	["anthropic-api-key", `curl https://api.anthropic.com/v1/organizations/users -H "x-api-key: ${t.anthropicAdmin}"`, `curl https://api.anthropic.com/v1/organizations/users -H "x-api-key: ${m("anthropic-api-key")}"`],
	["openai-api-key", `openai.api_key = "${t.openaiLegacy}"`, `openai.api_key = "${m("openai-api-key")}"`],
	["openai-api-key", `OPENAI_API_KEY=${t.openaiProject}\nOPENAI_ORG=org-main`, `OPENAI_API_KEY=${m("openai-api-key")}\nOPENAI_ORG=org-main`],
	["openai-api-key", `curl https://api.openai.com/v1/models -H "Authorization: Bearer ${t.openaiService}"`, `curl https://api.openai.com/v1/models -H "Authorization: Bearer ${m("openai-api-key")}"`],
	["aws-access-key", `2025-01-12T10:00:00Z INFO boto: using credentials ${t.awsAccess} from env`, `2025-01-12T10:00:00Z INFO boto: using credentials ${m("aws-access-key")} from env`],
	["aws-access-key", `[default]\naws_access_key_id = ${t.awsSession}\nregion = us-east-1`, `[default]\naws_access_key_id = ${m("aws-access-key")}\nregion = us-east-1`],
	["aws-secret-access-key", `aws_secret_access_key = ${t.awsSecret}\n`, `aws_secret_access_key = ${m("aws-secret-access-key")}\n`],
	["aws-secret-access-key", `{"AccessKeyId": "${t.awsAccess}", "SecretAccessKey": "${t.awsSecret}"}`, `{"AccessKeyId": "${m("aws-access-key")}", "SecretAccessKey": "${m("aws-secret-access-key")}"}`],
	["github-token", `git remote set-url origin https://${t.ghp}@github.com/acme/app.git`, `git remote set-url origin https://${m("github-token")}@github.com/acme/app.git`],
	["github-token", `{"oauth_token": "${t.gho}", "user": "octocat"}`, `{"oauth_token": "${m("github-token")}", "user": "octocat"}`],
	["github-token", `[actions] GITHUB_TOKEN resolved to ${t.ghs} (expires in 1h)`, `[actions] GITHUB_TOKEN resolved to ${m("github-token")} (expires in 1h)`],
	// Glued to a name by - or _: a model's name, a key of a tool's input.
	["github-token", `model claude-${t.ghp}, key_${t.gho}`, `model claude-${m("github-token")}, key_${m("github-token")}`],
	["anthropic-api-key", `ANTHROPIC_KEY_${t.anthropic}`, `ANTHROPIC_KEY_${m("anthropic-api-key")}`],
	["github-token", `echo ${t.ghu} | gh auth login --with-token`, `echo ${m("github-token")} | gh auth login --with-token`],
	["github-token", `gh auth login --with-token <<< ${t.githubPat}`, `gh auth login --with-token <<< ${m("github-token")}`],
	["gitlab-token", `curl --header "PRIVATE-TOKEN: ${t.glpat}" https://gitlab.example.com/api/v4/projects`, `curl --header "PRIVATE-TOKEN: ${m("gitlab-token")}" https://gitlab.example.com/api/v4/projects`],
	["gitlab-token", `DEPLOY_TOKEN=${t.gldt}`, `DEPLOY_TOKEN=${m("gitlab-token")}`],
	["gitlab-token", `[[runners]]\n  token = "${t.glrt}"`, `[[runners]]\n  token = "${m("gitlab-token")}"`],
	["slack-token", `SLACK_BOT_TOKEN=${t.xoxb}\nSLACK_CHANNEL=#general`, `SLACK_BOT_TOKEN=${m("slack-token")}\nSLACK_CHANNEL=#general`],
	["slack-token", `{"ok": true, "access_token": "${t.xoxp}", "scope": "chat:write"}`, `{"ok": true, "access_token": "${m("slack-token")}", "scope": "chat:write"}`],
	["slack-token", `SLACK_APP_TOKEN=${t.xapp}`, `SLACK_APP_TOKEN=${m("slack-token")}`],
	["slack-webhook", `curl -X POST -d '{"text":"hi"}' https://hooks.slack.com/services/${t.slackHookPath}`, `curl -X POST -d '{"text":"hi"}' https://hooks.slack.com/services/${m("slack-webhook")}`],
	["stripe-key", `const stripe = new Stripe("${t.stripeSecret}");`, `const stripe = new Stripe("${m("stripe-key")}");`],
	["stripe-key", `stripe listen --api-key ${t.stripeTest}`, `stripe listen --api-key ${m("stripe-key")}`],
	["stripe-key", `STRIPE_RESTRICTED_KEY=${t.stripeRestricted}`, `STRIPE_RESTRICTED_KEY=${m("stripe-key")}`],
	["stripe-webhook-secret", `Ready! Your webhook signing secret is ${t.whsec} (^C to quit)`, `Ready! Your webhook signing secret is ${m("stripe-webhook-secret")} (^C to quit)`],
	["google-api-key", `GET https://maps.googleapis.com/maps/api/geocode/json?address=Seoul&key=${t.google} 200`, `GET https://maps.googleapis.com/maps/api/geocode/json?address=Seoul&key=${m("google-api-key")} 200`],
	["google-oauth-token", `{"token_type": "Bearer", "access_token": "${t.ya29}", "expires_in": 3599}`, `{"token_type": "Bearer", "access_token": "${m("google-oauth-token")}", "expires_in": 3599}`],
	["google-oauth-client-secret", `{"installed": {"client_id": "1234-abc.apps.googleusercontent.com", "client_secret": "${t.gocspx}"}}`, `{"installed": {"client_id": "1234-abc.apps.googleusercontent.com", "client_secret": "${m("google-oauth-client-secret")}"}}`],
	["npm-token", `//registry.npmjs.org/:_authToken=${t.npm}`, `//registry.npmjs.org/:_authToken=${m("npm-token")}`],
	["pypi-token", `[pypi]\n  username = __token__\n  password = ${t.pypi}`, `[pypi]\n  username = __token__\n  password = ${m("pypi-token")}`],
	["huggingface-token", `$ huggingface-cli login --token ${t.hf}`, `$ huggingface-cli login --token ${m("huggingface-token")}`],
	["sendgrid-api-key", `SENDGRID_API_KEY='${t.sendgrid}'`, `SENDGRID_API_KEY='${m("sendgrid-api-key")}'`],
	["twilio-api-key", `twilio: created API key ${t.twilio} for account`, `twilio: created API key ${m("twilio-api-key")} for account`],
	["mailgun-api-key", `curl -s --user 'api:${t.mailgun}' https://api.mailgun.net/v3/mg.example.com/messages`, `curl -s --user 'api:${m("mailgun-api-key")}' https://api.mailgun.net/v3/mg.example.com/messages`],
	["shopify-token", `curl -H "X-Shopify-Access-Token: ${t.shopify}" https://shop.myshopify.com/admin/api/2024-01/shop.json`, `curl -H "X-Shopify-Access-Token: ${m("shopify-token")}" https://shop.myshopify.com/admin/api/2024-01/shop.json`],
	["digitalocean-token", `doctl auth init -t ${t.digitalocean}`, `doctl auth init -t ${m("digitalocean-token")}`],
	["openrouter-api-key", `The OpenRouter call fails with my key ${t.openrouter}, why?`, `The OpenRouter call fails with my key ${m("openrouter-api-key")}, why?`],
	["deepseek-api-key", `client = OpenAI(api_key="${t.deepseek}", base_url="https://api.deepseek.com")`, `client = OpenAI(api_key="${m("deepseek-api-key")}", base_url="https://api.deepseek.com")`],
	["groq-api-key", `the groq integration fails with my key ${t.groq}`, `the groq integration fails with my key ${m("groq-api-key")}`],
	["xai-api-key", `curl https://api.x.ai/v1/chat/completions -H "Authorization: Bearer ${t.xai}"`, `curl https://api.x.ai/v1/chat/completions -H "Authorization: Bearer ${m("xai-api-key")}"`],
	["perplexity-api-key", `my perplexity key is ${t.perplexity}`, `my perplexity key is ${m("perplexity-api-key")}`],
	["replicate-api-token", `replicate login with ${t.replicate} fails`, `replicate login with ${m("replicate-api-token")} fails`],
	["linear-api-key", `use ${t.linear} for the Linear API`, `use ${m("linear-api-key")} for the Linear API`],
	["notion-token", `notion = Client(auth="${t.notion}")`, `notion = Client(auth="${m("notion-token")}")`],
	["supabase-token", `supabase login --token ${t.supabase}`, `supabase login --token ${m("supabase-token")}`],
	["sentry-token", `sentry-cli --auth-token ${t.sentry} releases list`, `sentry-cli --auth-token ${m("sentry-token")} releases list`],
	["grafana-token", `the dashboard import needs ${t.grafana}`, `the dashboard import needs ${m("grafana-token")}`],
	["vault-token", `vault login ${t.vault}`, `vault login ${m("vault-token")}`],
	["postman-api-key", `postman login --with-api-key ${t.postman}`, `postman login --with-api-key ${m("postman-api-key")}`],
	["newrelic-api-key", `newrelic profile add --apiKey ${t.newrelic}`, `newrelic profile add --apiKey ${m("newrelic-api-key")}`],
	["atlassian-api-token", `jira login with me@acme.dev and ${t.atlassian}`, `jira login with me@acme.dev and ${m("atlassian-api-token")}`],
	["databricks-token", `databricks configure with host and ${t.databricks}`, `databricks configure with host and ${m("databricks-token")}`],
	["doppler-token", `doppler configure set token ${t.doppler}`, `doppler configure set token ${m("doppler-token")}`],
	["pulumi-token", `pulumi login with ${t.pulumi}`, `pulumi login with ${m("pulumi-token")}`],
	["fly-token", `fly auth token is ${t.fly}`, `fly auth token is ${m("fly-token")}`],
	["cloudflare-origin-ca-key", `X-Auth-User-Service-Key: ${t.cloudflareOrigin}`, `X-Auth-User-Service-Key: ${m("cloudflare-origin-ca-key")}`],
	["telegram-bot-token", `curl https://api.telegram.org/bot${t.telegram}/getMe`, `curl https://api.telegram.org/bot${m("telegram-bot-token")}/getMe`],
	["discord-bot-token", `client.login("${t.discord}");`, `client.login("${m("discord-bot-token")}");`],
	["discord-bot-token", `DISCORD_TOKEN=${t.discord}\n`, `DISCORD_TOKEN=${m("discord-bot-token")}\n`],
	["private-key", `users:\n- name: admin\n  user:\n    client-key-data: ${t.kubeKey}\n`, `users:\n- name: admin\n  user:\n    client-key-data: ${m("private-key")}\n`],
	["private-key", `{"users": [{"name": "u", "user": {"client-key-data": "${t.kubeKey}"}}]}`, `{"users": [{"name": "u", "user": {"client-key-data": "${m("private-key")}"}}]}`],
	["azure-storage-key", `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${t.azure};EndpointSuffix=core.windows.net`, `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${m("azure-storage-key")};EndpointSuffix=core.windows.net`],
	["jwt", `[auth] 2025-03-01 login ok id_token=${t.jwt} user=42`, `[auth] 2025-03-01 login ok id_token=${m("jwt")} user=42`],
	["bearer-token", `{"headers": {"authorization": "Bearer ${t.bearer}"}}`, `{"headers": {"authorization": "Bearer ${m("bearer-token")}"}}`],
	["bearer-token", `curl -H 'Authorization: Bearer ${t.bearer}' https://api.example.com/me`, `curl -H 'Authorization: Bearer ${m("bearer-token")}' https://api.example.com/me`],
	["bearer-token", `DEBUG http request headers: Bearer ${t.bearer}`, `DEBUG http request headers: Bearer ${m("bearer-token")}`],
	["basic-auth", `> Authorization: Basic ${t.basic}\n> Accept: */*`, `> Authorization: Basic ${m("basic-auth")}\n> Accept: */*`],
	["basic-auth", `curl -u admin:${t.password} https://jenkins.example.com/api/json`, `curl -u admin:${m("basic-auth")} https://jenkins.example.com/api/json`],
	["connection-string-password", `DATABASE_URL=postgres://app:${t.password}@db.internal:5432/app`, `DATABASE_URL=postgres://app:${m("connection-string-password")}@db.internal:5432/app`],
	["connection-string-password", `mysql://root:${t.password}@127.0.0.1:3306/shop`, `mysql://root:${m("connection-string-password")}@127.0.0.1:3306/shop`],
	["connection-string-password", `const uri = "mongodb+srv://admin:${t.password}@cluster0.abcde.mongodb.net/?retryWrites=true";`, `const uri = "mongodb+srv://admin:${m("connection-string-password")}@cluster0.abcde.mongodb.net/?retryWrites=true";`],
	["connection-string-password", `REDIS_URL=redis://:${t.password}@cache:6379/0`, `REDIS_URL=redis://:${m("connection-string-password")}@cache:6379/0`],
	["connection-string-password", `amqp://guest:${t.password}@rabbit:5672/ and https://deploy:${t.password}@git.example.com/repo.git`, `amqp://guest:${m("connection-string-password")}@rabbit:5672/ and https://deploy:${m("connection-string-password")}@git.example.com/repo.git`],
	["password", `DB_HOST=localhost\nDB_PASSWORD=${t.password}\nDB_PORT=5432`, `DB_HOST=localhost\nDB_PASSWORD=${m("password")}\nDB_PORT=5432`],
	["password", `database:\n  user: app\n  password: ${t.password}\n`, `database:\n  user: app\n  password: ${m("password")}\n`],
	["password", `{"username": "admin", "password": "${t.password}"}`, `{"username": "admin", "password": "${m("password")}"}`],
	["password", `mysql --user=root --password=${t.password} shop`, `mysql --user=root --password=${m("password")} shop`],
	["secret", `export SECRET_KEY=${t.genericSecret}\nexport DEBUG=false`, `export SECRET_KEY=${m("secret")}\nexport DEBUG=false`],
	["secret", `{"client_secret": "${t.genericSecret}", "client_id": "web-app"}`, `{"client_secret": "${m("secret")}", "client_id": "web-app"}`],
	["secret", `callback?code=abc&access_token=${t.genericSecret}&state=xyz`, `callback?code=abc&access_token=${m("secret")}&state=xyz`],
	// A password htpasswd takes on its command line (-b: after the file and the user; -nb: after the user).
	["password", `htpasswd -b /etc/nginx/.htpasswd admin ${t.password}`, `htpasswd -b /etc/nginx/.htpasswd admin ${m("password")}`],
	["password", `sudo htpasswd -cbB -C 12 .htpasswd deploy '${t.password}' && nginx -s reload`, `sudo htpasswd -cbB -C 12 .htpasswd deploy '${m("password")}' && nginx -s reload`],
	["password", `htpasswd -nb admin ${t.password} >> auth`, `htpasswd -nb admin ${m("password")} >> auth`],
	// Percent-encoded: the key, its separator or the token's own characters escaped, once or twice.
	["secret", `https%3A%2F%2Fapi.example.com%2Fv1%3Fapi_key%3D${t.genericSecret}%26page%3D2`, `https%3A%2F%2Fapi.example.com%2Fv1%3Fapi_key%3D${m("secret")}%26page%3D2`],
	["password", `login?state=%7B%22user%22%3A%22bob%22%2C%22password%22%3A%22${t.genericSecret}%22%7D`, `login?state=%7B%22user%22%3A%22bob%22%2C%22password%22%3A%22${m("password")}%22%7D`],
	["secret", `redirect=https%253A%252F%252Fx.example%252Fcb%253Ftoken%253D${t.genericSecret}`, `redirect=https%253A%252F%252Fx.example%252Fcb%253Ftoken%253D${m("secret")}`],
	["github-token", `see https://example.com/?q=${t.ghp.slice(0, 3)}%5F${t.ghp.slice(4)}`, `see https://example.com/?q=${m("github-token")}`],
	["bearer-token", `GET /proxy?h=Authorization%3A%20Bearer%20${t.bearer} 200`, `GET /proxy?h=Authorization%3A%20Bearer%20${m("bearer-token")} 200`],
	// Basic credentials as base64, known by what they decode to; and as a command line encodes them.
	["basic-auth", `auth_header = "Basic ${t.basicCredentials}"`, `auth_header = "Basic ${m("basic-auth")}"`],
	["basic-auth", `proxy: sending Basic ${t.basicCredentials} upstream`, `proxy: sending Basic ${m("basic-auth")} upstream`],
	["basic-auth", `echo -n 'deploy:${t.password}' | base64`, `echo -n 'deploy:${m("basic-auth")}' | base64`],
	["basic-auth", `base64 <<< "deploy:${t.password}"`, `base64 <<< "deploy:${m("basic-auth")}"`],
	// A command's own password option, a blank before the value.
	["password", `mongosh "mongodb://db.internal" -u admin -p ${t.password} --authenticationDatabase admin`, `mongosh "mongodb://db.internal" -u admin -p ${m("password")} --authenticationDatabase admin`],
	["password", `sqlcmd -S localhost -U sa -P '${t.password}' -Q "SELECT 1"`, `sqlcmd -S localhost -U sa -P '${m("password")}' -Q "SELECT 1"`],
	["password", `ldapsearch -x -H ldap://dc -D cn=admin,dc=acme -w ${t.password} -b dc=acme`, `ldapsearch -x -H ldap://dc -D cn=admin,dc=acme -w ${m("password")} -b dc=acme`],
	["password", `az login --service-principal -u app-id -p ${t.password} --tenant acme`, `az login --service-principal -u app-id -p ${m("password")} --tenant acme`],
	["password", `smbclient //fs/share -U deploy%${t.password} -c ls`, `smbclient //fs/share -U deploy%${m("password")} -c ls`],
	["password", `mosquitto_pub -h broker -u dev -P ${t.password} -t x -m hi`, `mosquitto_pub -h broker -u dev -P ${m("password")} -t x -m hi`],
	// An option named after a secret, its value after a blank; keytool's and openssl's own.
	["password", `mongodump --username admin --password ${t.password} --db app`, `mongodump --username admin --password ${m("password")} --db app`],
	["secret", `./deploy.sh --api-key ${t.genericSecret} --region eu-west-1`, `./deploy.sh --api-key ${m("secret")} --region eu-west-1`],
	["password", `keytool -importkeystore -srcstorepass ${t.password} -deststorepass ${t.password}`, `keytool -importkeystore -srcstorepass ${m("password")} -deststorepass ${m("password")}`],
	["password", `openssl pkcs12 -export -in cert.pem -passout pass:${t.password} -out cert.p12`, `openssl pkcs12 -export -in cert.pem -passout pass:${m("password")} -out cert.p12`],
	// Echoed into what reads a secret on stdin; `gh secret set --body`.
	["secret", `echo ${t.genericSecret} | docker login ghcr.io -u octocat --password-stdin`, `echo ${m("secret")} | docker login ghcr.io -u octocat --password-stdin`],
	["secret", `echo "${t.genericSecret}" | npx wrangler secret put API_KEY`, `echo "${m("secret")}" | npx wrangler secret put API_KEY`],
	["secret", `gh secret set DEPLOY_KEY --body ${t.genericSecret} --repo acme/app`, `gh secret set DEPLOY_KEY --body ${m("secret")} --repo acme/app`],
	["password", `echo 'deploy:${t.password}' | sudo chpasswd`, `echo 'deploy:${m("password")}' | sudo chpasswd`],
	// .netrc, XML elements and name/value attributes, SQL.
	["password", `machine api.heroku.com\n  login me@acme.dev\n  password ${t.genericSecret}\n`, `machine api.heroku.com\n  login me@acme.dev\n  password ${m("password")}\n`],
	["password", `<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>${t.password}</password>\n</server>`, `<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>${m("password")}</password>\n</server>`],
	["password", `<add key="ClearTextPassword" value="${t.password}" />`, `<add key="ClearTextPassword" value="${m("password")}" />`],
	["secret", `<appSettings><add key="StripeApiKey" value="${t.genericSecret}"/></appSettings>`, `<appSettings><add key="StripeApiKey" value="${m("secret")}"/></appSettings>`],
	["password", `CREATE USER 'app'@'%' IDENTIFIED BY '${t.password}';`, `CREATE USER 'app'@'%' IDENTIFIED BY '${m("password")}';`],
	["password", `psql -c "ALTER ROLE app WITH LOGIN PASSWORD '${t.password}';"`, `psql -c "ALTER ROLE app WITH LOGIN PASSWORD '${m("password")}';"`],
	// Base64 whose decoded text holds a secret: a Docker config, a connection string, a key file, a .env file, a PEM key.
	["base64-secret", `data:\n  .dockerconfigjson: ${t.dockerConfig}\ntype: kubernetes.io/dockerconfigjson`, `data:\n  .dockerconfigjson: ${m("base64-secret")}\ntype: kubernetes.io/dockerconfigjson`],
	["base64-secret", `data:\n  DATABASE_URL: ${t.databaseUrl}\n`, `data:\n  DATABASE_URL: ${m("base64-secret")}\n`],
	["base64-secret", `GCP_SA_KEY_B64=${t.serviceAccount}`, `GCP_SA_KEY_B64=${m("base64-secret")}`],
	["base64-secret", `kubectl get secret app-env -o jsonpath='{.data.env}' → ${t.envFile}`, `kubectl get secret app-env -o jsonpath='{.data.env}' → ${m("base64-secret")}`],
	// A symmetric key under a name that says what it does, as bare base64 (no rule could tell it from a hash without its name).
	["secret", `ENCRYPTION_KEY=${t.awsSecret.slice(0, 43)}=\nSIGNING_KEY=${t.genericSecret}`, `ENCRYPTION_KEY=${m("secret")}\nSIGNING_KEY=${m("secret")}`],
	["secret", `production:\n  master_key: "${t.awsSecret.slice(0, 43)}="\n  region: eu`, `production:\n  master_key: "${m("secret")}"\n  region: eu`],
	// Commands that take a password as an argument of their own: RabbitMQ's users, archives, openssl's ciphers, Vault, ssh-keygen, Oracle, mysqladmin.
	["password", `rabbitmqctl add_user deploy ${t.password}`, `rabbitmqctl add_user deploy ${m("password")}`],
	["password", `sudo rabbitmqctl -n rabbit@mq change_password 'deploy' '${t.password}' && rabbitmqctl set_user_tags deploy administrator`, `sudo rabbitmqctl -n rabbit@mq change_password 'deploy' '${m("password")}' && rabbitmqctl set_user_tags deploy administrator`],
	["password", `zip -rP ${t.password} backup.zip ./data`, `zip -rP ${m("password")} backup.zip ./data`],
	["password", `zip --password ${t.password} -r out.zip dir`, `zip --password ${m("password")} -r out.zip dir`],
	["password", `unzip -o -P ${t.password} release.zip -d out`, `unzip -o -P ${m("password")} release.zip -d out`],
	["password", `7z a -t7z -mhe=on -p${t.password} secrets.7z ./vault`, `7z a -t7z -mhe=on -p${m("password")} secrets.7z ./vault`],
	["password", `7z x -p"${t.password}" backup.7z -o/tmp/restore`, `7z x -p"${m("password")}" backup.7z -o/tmp/restore`],
	["password", `openssl enc -aes-256-cbc -salt -pbkdf2 -in db.sql -out db.sql.enc -k ${t.password}`, `openssl enc -aes-256-cbc -salt -pbkdf2 -in db.sql -out db.sql.enc -k ${m("password")}`],
	["password", `openssl enc -d -aes-256-cbc -pbkdf2 -in db.sql.enc -pass pass:${t.password} | openssl rsa -passin pass:${t.password}`, `openssl enc -d -aes-256-cbc -pbkdf2 -in db.sql.enc -pass pass:${m("password")} | openssl rsa -passin pass:${m("password")}`],
	["secret", `openssl enc -aes-128-cbc -K ${t.databricks.slice(4)} -iv 000102030405060708090a0b0c0d0e0f -in f`, `openssl enc -aes-128-cbc -K ${m("secret")} -iv 000102030405060708090a0b0c0d0e0f -in f`],
	["secret", `vault login s.${t.genericSecret.slice(0, 24)}`, `vault login ${m("secret")}`],
	["password", `ssh-keygen -p -f ~/.ssh/id_ed25519 -P ${t.password} -N ${t.password}`, `ssh-keygen -p -f ~/.ssh/id_ed25519 -P ${m("password")} -N ${m("password")}`],
	["password", `sqlplus -s app/${t.password}@//db.internal:1521/ORCL @report.sql`, `sqlplus -s app/${m("password")}@//db.internal:1521/ORCL @report.sql`],
	["password", `mysqladmin -u root -p${t.password} password ${t.password}`, `mysqladmin -u root -p${m("password")} password ${m("password")}`],
	["secret", `echo '${t.password}' | passwd --stdin deploy`, `echo '${m("secret")}' | passwd --stdin deploy`],
	// Quoted after a command's password option.
	["password", `sshpass -p'${t.password}' ssh deploy@10.0.0.5`, `sshpass -p'${m("password")}' ssh deploy@10.0.0.5`],
	["password", `redis-cli -h cache -a "${t.password}" --no-auth-warning ping`, `redis-cli -h cache -a "${m("password")}" --no-auth-warning ping`],
	// .pgpass lines: written to the file, shown as the file (a numbered line of a viewer), and PGPASSWORD.
	["password", `echo "db.internal:5432:app:deploy:${t.password}" >> ~/.pgpass && chmod 600 ~/.pgpass`, `echo "db.internal:5432:app:deploy:${m("password")}" >> ~/.pgpass && chmod 600 ~/.pgpass`],
	["password", `localhost:5432:*:postgres:${t.password}\ndb.internal:*:app:deploy:${t.password}\n`, `localhost:5432:*:postgres:${m("password")}\ndb.internal:*:app:deploy:${m("password")}\n`],
	["password", `     1\t10.0.0.5:5432:shop:app:${t.password}`, `     1\t10.0.0.5:5432:shop:app:${m("password")}`],
	["password", `PGPASSWORD=${t.password} psql -h db.internal -U app shop`, `PGPASSWORD=${m("password")} psql -h db.internal -U app shop`],
	["password", `wget --user=deploy --password=${t.password} https://files.example.com/a.tgz`, `wget --user=deploy --password=${m("password")} https://files.example.com/a.tgz`],
	// A command line inside a JSON string (a tool's input as a log or a transcript shows it): its quotes written `\"`.
	["password", `{"command": "sshpass -p \\"${t.password}\\" ssh deploy@10.0.0.5 uptime"}`, `{"command": "sshpass -p \\"${m("password")}\\" ssh deploy@10.0.0.5 uptime"}`],
	["password", `{"cmd": "deploy --password \\"${t.password}\\" --env prod && zip -P \\"${t.password}\\" out.zip f && 7z x -p\\"${t.password}\\" a.7z"}`, `{"cmd": "deploy --password \\"${m("password")}\\" --env prod && zip -P \\"${m("password")}\\" out.zip f && 7z x -p\\"${m("password")}\\" a.7z"}`],
	["basic-auth", `"input": {"command": "curl -u \\"deploy:${t.password}\\" https://ci.example.com/api"}`, `"input": {"command": "curl -u \\"deploy:${m("basic-auth")}\\" https://ci.example.com/api"}`],
	["password", `mysql -h db -u root -p"${t.password}" shop`, `mysql -h db -u root -p"${m("password")}" shop`],
	// A password echoed into sudo, which reads it from stdin with -S.
	["password", `echo '${t.password}' | sudo -S apt-get install -y nginx`, `echo '${m("password")}' | sudo -S apt-get install -y nginx`],
	["password", `{"command": "echo \\"${t.password}\\" | sudo -kS systemctl restart nginx"}`, `{"command": "echo \\"${m("password")}\\" | sudo -kS systemctl restart nginx"}`],
	// Windows' net user, a user's password hash (useradd/usermod -p) and the openssl passwd that makes one, lftp -u.
	["password", `net user deploy ${t.password} /add /expires:never`, `net user deploy ${m("password")} /add /expires:never`],
	["password", `NET USER Administrator "${t.password}" /domain`, `NET USER Administrator "${m("password")}" /domain`],
	["password", `sudo useradd -m -s /bin/bash -p '${t.cryptHash}' deploy`, `sudo useradd -m -s /bin/bash -p '${m("password")}' deploy`],
	["password", `usermod --password "$(openssl passwd -6 -salt Xq3 ${t.password})" deploy`, `usermod --password "$(openssl passwd -6 -salt Xq3 ${m("password")})" deploy`],
	["password", `lftp -u deploy,${t.password} -e "mirror -R dist /www; quit" ftp.example.com`, `lftp -u deploy,${m("password")} -e "mirror -R dist /www; quit" ftp.example.com`],
	["password", `lftp -e 'set ssl:verify-certificate no; open -u deploy,"${t.password}" sftp://files.example.com; ls'`, `lftp -e 'set ssl:verify-certificate no; open -u deploy,"${m("password")}" sftp://files.example.com; ls'`],
	// rclone's remotes and MinIO's client: a secret key as an argument.
	["secret", `rclone config create s3prod s3 provider AWS access_key_id AKIA${"X".repeat(4)}EXAMPLE secret_access_key ${t.awsSecret} region eu-west-1`, `rclone config create s3prod s3 provider AWS access_key_id AKIAXXXXEXAMPLE secret_access_key ${m("secret")} region eu-west-1`],
	["password", `rclone config create nas sftp host nas.lan user admin pass ${t.password} --obscure && rclone obscure ${t.password}`, `rclone config create nas sftp host nas.lan user admin pass ${m("password")} --obscure && rclone obscure ${m("password")}`],
	["secret", `rclone copy ./out :s3:bkt --s3-access-key-id minio --s3-secret-access-key ${t.genericSecret}`, `rclone copy ./out :s3:bkt --s3-access-key-id minio --s3-secret-access-key ${m("secret")}`],
	["secret", `mc alias set myminio http://localhost:9000 admin ${t.genericSecret} --api S3v4`, `mc alias set myminio http://localhost:9000 admin ${m("secret")} --api S3v4`],
	["secret", `mc config host add s3 https://s3.amazonaws.com AKIAXXXXEXAMPLE ${t.awsSecret}`, `mc config host add s3 https://s3.amazonaws.com AKIAXXXXEXAMPLE ${m("secret")}`],
	// Heroku: the newer HRKU- keys, and what heroku auth:token prints after it (a bare UUID).
	["heroku-api-key", `export HEROKU_API_KEY=HRKU-AA${gen(B64URL, 58)}`, `export HEROKU_API_KEY=${m("heroku-api-key")}`],
	["heroku-api-key", `$ heroku auth:token\n ›   Warning: token will expire 01/05/2027\n ›   Use heroku authorizations:create to generate a long-term token\n${t.uuid}\n$ git push heroku main`, `$ heroku auth:token\n ›   Warning: token will expire 01/05/2027\n ›   Use heroku authorizations:create to generate a long-term token\n${m("heroku-api-key")}\n$ git push heroku main`],
	// PuTTY's -pw, NetworkManager's Wi-Fi passwords.
	["password", `plink -ssh -batch -pw ${t.password} admin@10.0.0.5 "uptime" && pscp -pw "${t.password}" a.txt admin@10.0.0.5:/tmp`, `plink -ssh -batch -pw ${m("password")} admin@10.0.0.5 "uptime" && pscp -pw "${m("password")}" a.txt admin@10.0.0.5:/tmp`],
	["password", `sudo nmcli device wifi connect HomeNet password ${t.password} ifname wlan0 && nmcli con modify HomeNet wifi-sec.psk ${t.password}`, `sudo nmcli device wifi connect HomeNet password ${m("password")} ifname wlan0 && nmcli con modify HomeNet wifi-sec.psk ${m("password")}`],
	// Windows and BMC command lines: ipmitool's -P, psexec's -p, cmdkey's /pass:, net use's password after the share (its `\\` read as one argument), also in JSON.
	["password", `ipmitool -I lanplus -H 10.0.0.9 -U admin -P ${t.password} chassis power status`, `ipmitool -I lanplus -H 10.0.0.9 -U admin -P ${m("password")} chassis power status`],
	["password", `psexec \\\\srv01 -u CORP\\admin -p ${t.password} -s cmd /c whoami`, `psexec \\\\srv01 -u CORP\\admin -p ${m("password")} -s cmd /c whoami`],
	["password", `cmdkey /add:srv01.corp.local /user:CORP\\admin /pass:${t.password}`, `cmdkey /add:srv01.corp.local /user:CORP\\admin /pass:${m("password")}`],
	["password", `net use Z: \\\\fs01\\builds ${t.password} /user:CORP\\deploy /persistent:no`, `net use Z: \\\\fs01\\builds ${m("password")} /user:CORP\\deploy /persistent:no`],
	["password", `NET USE \\\\fs01\\IPC$ /user:CORP\\admin "${t.password}"`, `NET USE \\\\fs01\\IPC$ /user:CORP\\admin "${m("password")}"`],
	["password", `{"command": "net use \\\\\\\\fs01\\\\builds \\"${t.password}\\" /user:deploy"}`, `{"command": "net use \\\\\\\\fs01\\\\builds \\"${m("password")}\\" /user:deploy"}`],
	["bearer-token", `curl -s --oauth2-bearer ${t.genericSecret} https://api.example.com/v1/me && curl --oauth2-bearer="${t.genericSecret}" https://x.example.com`, `curl -s --oauth2-bearer ${m("bearer-token")} https://api.example.com/v1/me && curl --oauth2-bearer="${m("bearer-token")}" https://x.example.com`],
	// sudo -S from a here-string, and from printf (its format string is not the value), also into what reads a secret on stdin.
	["password", `sudo -S <<< '${t.password}' apt-get update`, `sudo -S <<< '${m("password")}' apt-get update`],
	["password", `sudo -kS systemctl restart nginx <<< "${t.password}"`, `sudo -kS systemctl restart nginx <<< "${m("password")}"`],
	["password", `printf '%s\\n' '${t.password}' | sudo -S apt-get install -y nginx`, `printf '%s\\n' '${m("password")}' | sudo -S apt-get install -y nginx`],
	["password", `{"command": "printf \\"%s\\\\n\\" \\"${t.password}\\" | sudo -S true"}`, `{"command": "printf \\"%s\\\\n\\" \\"${m("password")}\\" | sudo -S true"}`],
	["secret", `printf '%s' ${t.genericSecret} | docker login -u me --password-stdin ghcr.io`, `printf '%s' ${m("secret")} | docker login -u me --password-stdin ghcr.io`],
	// Credentials for base64 and a .netrc entry inside a JSON string: quotes written `\"`.
	["basic-auth", `{"command": "echo -n \\"deploy:${t.password}\\" | base64"}`, `{"command": "echo -n \\"deploy:${m("basic-auth")}\\" | base64"}`],
	["basic-auth", `{"command": "base64 <<< \\"deploy:${t.password}\\""}`, `{"command": "base64 <<< \\"deploy:${m("basic-auth")}\\""}`],
	["password", `{"content": "machine api.example.com login deploy password \\"${t.password}\\"\\n"}`, `{"content": "machine api.example.com login deploy password \\"${m("password")}\\"\\n"}`],
	["password", `{"command": "echo \\"machine h login deploy password ${t.password}\\" >> ~/.netrc"}\nmachine g\n  login x\n  password "${t.password}"`, `{"command": "echo \\"machine h login deploy password ${m("password")}\\" >> ~/.netrc"}\nmachine g\n  login x\n  password "${m("password")}"`],
	["base64-secret", `  tls.key: ${t.pemBase64}\n  tls.crt: ${b64("-----BEGIN CERTIFICATE-----\nMIIC\n")}`, `  tls.key: ${m("base64-secret")}\n  tls.crt: ${b64("-----BEGIN CERTIFICATE-----\nMIIC\n")}`],
	// A bare `key:` with nothing before it; an option ending in a bare `KEY` or a plural, its value after a blank.
	["secret", `Here it is:\nkey: ${t.genericSecret}\nkeep it safe`, `Here it is:\nkey: ${m("secret")}\nkeep it safe`],
	["secret", `supabase functions deploy --service-key ${t.genericSecret} --project-ref acme && tool --api-keys ${t.genericSecret}`, `supabase functions deploy --service-key ${m("secret")} --project-ref acme && tool --api-keys ${m("secret")}`],
	// Plural names: several keys, tokens or secrets.
	["secret", `API_KEYS=${t.genericSecret}\n{"github_tokens": "${t.genericSecret}"}\nCLIENT_SECRETS: ${t.genericSecret}`, `API_KEYS=${m("secret")}\n{"github_tokens": "${m("secret")}"}\nCLIENT_SECRETS: ${m("secret")}`],
	// Prose: a value in base64url (`-` and `_` in it), and blanks as typed before `is`.
	["secret", `the token is ${t.base64url} and the key  is ${t.genericSecret}`, `the token is ${m("secret")} and the key  is ${m("secret")}`],
	// A hash's `=>` (PHP, Ruby, Perl), a variable's sigil (PHP, Perl, PowerShell), ODBC's and ADO's `Pwd=`.
	["secret", `'api_key' => '${t.genericSecret}',\n:auth_token => "${t.genericSecret}"`, `'api_key' => '${m("secret")}',\n:auth_token => "${m("secret")}"`],
	["password", `$password = '${t.password}';\n$dbPassword = "${t.password}"`, `$password = '${m("password")}';\n$dbPassword = "${m("password")}"`],
	["password", `Server=db;Database=app;Uid=sa;Pwd=${t.password};\nDriver={ODBC Driver 18 for SQL Server};Server=x;UID=sa;PWD=${t.password};Encrypt=yes`, `Server=db;Database=app;Uid=sa;Pwd=${m("password")};\nDriver={ODBC Driver 18 for SQL Server};Server=x;UID=sa;PWD=${m("password")};Encrypt=yes`],
	// Commands that set a variable, its name then its value after a blank.
	["secret", `set -x API_KEY ${t.genericSecret}\nset -gx GITHUB_TOKEN "${t.genericSecret}"`, `set -x API_KEY ${m("secret")}\nset -gx GITHUB_TOKEN "${m("secret")}"`],
	["secret", `setx OPENAI_API_KEY "${t.genericSecret}" /M\nsetx /s srv01 /u admin /p ${t.password} DB_PASSWORD ${t.password}`, `setx OPENAI_API_KEY "${m("secret")}" /M\nsetx /s srv01 /u admin /p ${m("password")} DB_PASSWORD ${m("password")}`],
	["secret", `setenv API_TOKEN ${t.genericSecret}\nlaunchctl setenv OPENAI_API_KEY ${t.genericSecret}`, `setenv API_TOKEN ${m("secret")}\nlaunchctl setenv OPENAI_API_KEY ${m("secret")}`],
	["secret", `FROM node:20\nENV SECRET_KEY ${t.genericSecret}\nENV NODE_ENV production`, `FROM node:20\nENV SECRET_KEY ${m("secret")}\nENV NODE_ENV production`],
	["secret", `dotnet user-secrets set "Stripe:SecretKey" "${t.genericSecret}" --project src/Web`, `dotnet user-secrets set "Stripe:SecretKey" "${m("secret")}" --project src/Web`],
	["secret", `git config --global github.token ${t.genericSecret}`, `git config --global github.token ${m("secret")}`],
	// A setter's call: the name in a string, the value in the next.
	["secret", `[Environment]::SetEnvironmentVariable("OPENAI_API_KEY", "${t.genericSecret}", "User")\nos.Setenv("API_TOKEN", "${t.genericSecret}")`, `[Environment]::SetEnvironmentVariable("OPENAI_API_KEY", "${m("secret")}", "User")\nos.Setenv("API_TOKEN", "${m("secret")}")`],
	["password", `System.setProperty("db.password", "${t.password}");\ndefine('DB_PASSWORD', '${t.password}');`, `System.setProperty("db.password", "${m("password")}");\ndefine('DB_PASSWORD', '${m("password")}');`],
	["secret", `buildConfigField("String", "API_KEY", "\\"${t.genericSecret}\\"")`, `buildConfigField("String", "API_KEY", "\\"${m("secret")}\\"")`],
	// A setter named after the secret, given the value alone.
	["secret", `client.setApiKey("${t.genericSecret}");\nsgMail.setApiKey('${t.genericSecret}')\nauth.SetToken(\`${t.genericSecret}\`)\nset_auth_token("${t.genericSecret}")`, `client.setApiKey("${m("secret")}");\nsgMail.setApiKey('${m("secret")}')\nauth.SetToken(\`${m("secret")}\`)\nset_auth_token("${m("secret")}")`],
	["password", `new Builder().withPassword("${t.password}")`, `new Builder().withPassword("${m("password")}")`],
	// The default a program falls back on when a variable naming a secret is unset.
	["secret", `os.getenv("OPENAI_API_KEY", "${t.genericSecret}")\nos.environ.get("API_TOKEN", default="${t.genericSecret}")\nENV.fetch('JWT_SECRET', '${t.genericSecret}')\nsecret := getEnv("JWT_SECRET", "${t.genericSecret}")`, `os.getenv("OPENAI_API_KEY", "${m("secret")}")\nos.environ.get("API_TOKEN", default="${m("secret")}")\nENV.fetch('JWT_SECRET', '${m("secret")}')\nsecret := getEnv("JWT_SECRET", "${m("secret")}")`],
	["secret", `const key = process.env.STRIPE_SECRET || "${t.genericSecret}";\nconst k = import.meta.env.VITE_API_KEY ?? '${t.genericSecret}'\ntoken = os.environ["API_TOKEN"] or "${t.genericSecret}"`, `const key = process.env.STRIPE_SECRET || "${m("secret")}";\nconst k = import.meta.env.VITE_API_KEY ?? '${m("secret")}'\ntoken = os.environ["API_TOKEN"] or "${m("secret")}"`],
	["password", `password: \${DB_PASSWORD:-${t.password}}\nexport TOKEN=\${GITHUB_TOKEN:=${t.genericSecret}}`, `password: \${DB_PASSWORD:-${m("password")}}\nexport TOKEN=\${GITHUB_TOKEN:=${m("secret")}}`],
	// A configuration's `name value` line: Java's `.properties`, redis.conf's directives, a file viewer's line number before it.
	["password", `db.url jdbc:postgresql://db/app\ndb.password ${t.password}\n# redis.conf\nrequirepass ${t.password}\n  12\u2192masterauth "${t.password}"`, `db.url jdbc:postgresql://db/app\ndb.password ${m("password")}\n# redis.conf\nrequirepass ${m("password")}\n  12\u2192masterauth "${m("password")}"`],
	["secret", `client_secret\t${t.genericSecret}\r\nSECRET_KEY ${t.genericSecret}`, `client_secret\t${m("secret")}\r\nSECRET_KEY ${m("secret")}`],
	// Go's declaration, its type after the name.
	["secret", `var apiKey string = "${t.genericSecret}"\nconst dbPassword string = \`${t.password}\`\nvar (\n\tapiToken string = "${t.genericSecret}"\n)`, `var apiKey string = "${m("secret")}"\nconst dbPassword string = \`${m("password")}\`\nvar (\n\tapiToken string = "${m("secret")}"\n)`],
	// A quoted key or a Ruby symbol in a subscript.
	["secret", `app.config['SECRET_KEY'] = '${t.genericSecret}'\nos.environ["API_KEY"] = "${t.genericSecret}"\nconfig[:api_key] = "${t.genericSecret}"`, `app.config['SECRET_KEY'] = '${m("secret")}'\nos.environ["API_KEY"] = "${m("secret")}"\nconfig[:api_key] = "${m("secret")}"`],
	// A value another field or element names: a `<value>` element, a `name`/`key` field then `value`, an object's `value`, a Terraform variable's default.
	["secret", `<setting name="ApiKey" serializeAs="String">\n  <value>${t.genericSecret}</value>\n</setting>\n<property name="password"><value>${t.password}</value></property>`, `<setting name="ApiKey" serializeAs="String">\n  <value>${m("secret")}</value>\n</setting>\n<property name="password"><value>${m("password")}</value></property>`],
	["password", `env:\n  - name: DB_PASSWORD\n    value: ${t.password}\n  - name: NODE_ENV\n    value: production\n[{"name": "API_KEY", "value": "${t.genericSecret}"}]`, `env:\n  - name: DB_PASSWORD\n    value: ${m("password")}\n  - name: NODE_ENV\n    value: production\n[{"name": "API_KEY", "value": "${m("secret")}"}]`],
	["secret", `apiKey={"value":"${t.genericSecret}"}\n"clientSecret": {\n  "value": "${t.genericSecret}"\n}`, `apiKey={"value":"${m("secret")}"}\n"clientSecret": {\n  "value": "${m("secret")}"\n}`],
	["password", `variable "db_password" {\n  type      = string\n  default   = "${t.password}"\n  sensitive = true\n}`, `variable "db_password" {\n  type      = string\n  default   = "${m("password")}"\n  sensitive = true\n}`],
	// A declaration's type between the key and its `=`.
	["secret", `const apiKey: string = "${t.genericSecret}";\nconst API_KEY: &str = "${t.genericSecret}";\n    openai_api_key: Optional[str] = "${t.genericSecret}"`, `const apiKey: string = "${m("secret")}";\nconst API_KEY: &str = "${m("secret")}";\n    openai_api_key: Optional[str] = "${m("secret")}"`],
	// Commands that store a secret in a vault, and PowerShell's plain text made a SecureString.
	["secret", `az keyvault secret set --vault-name kv --name DbPassword --value ${t.genericSecret}\naws secretsmanager create-secret --name prod/db --secret-string ${t.genericSecret}\naws ssm put-parameter --name /app/api --type SecureString --value ${t.genericSecret}`, `az keyvault secret set --vault-name kv --name DbPassword --value ${m("secret")}\naws secretsmanager create-secret --name prod/db --secret-string ${m("secret")}\naws ssm put-parameter --name /app/api --type SecureString --value ${m("secret")}`],
	["password", `$pw = ConvertTo-SecureString "${t.password}" -AsPlainText -Force`, `$pw = ConvertTo-SecureString "${m("password")}" -AsPlainText -Force`],
	// A Windows domain user (`CORP\admin`) before the password: the `\` is in the word, raw or doubled in a JSON string.
	["password", `setx /s srv01 /u CORP\\admin /p ${t.password} API_KEY x\nschtasks /create /ru CORP\\svc /rp ${t.password} /tn nightly\nschtasks /create /s srv01 /u admin /p ${t.password} /ru SYSTEM /tn x`, `setx /s srv01 /u CORP\\admin /p ${m("password")} API_KEY x\nschtasks /create /ru CORP\\svc /rp ${m("password")} /tn nightly\nschtasks /create /s srv01 /u admin /p ${m("password")} /ru SYSTEM /tn x`],
	["basic-auth", `curl -u CORP\\bob:${t.password} https://intranet/api\n{"command":"curl -u CORP\\\\bob:${t.password} https://intranet/api"}`, `curl -u CORP\\bob:${m("basic-auth")} https://intranet/api\n{"command":"curl -u CORP\\\\bob:${m("basic-auth")} https://intranet/api"}`],
	// A shell script in a JSON string, its lines joined by a `\` (written `\\` there) before an escaped line end.
	["password", `{"script":"export DB_PASSWORD=\\\\\\n  ${t.password}\\n./deploy.sh"}`, `{"script":"export DB_PASSWORD=\\\\\\n  ${m("password")}\\n./deploy.sh"}`],
	["bearer-token", `{"command":"curl -H \\"Authorization: Bearer \\\\\\n  ${t.genericSecret}\\" https://api.example.com"}`, `{"command":"curl -H \\"Authorization: Bearer \\\\\\n  ${m("bearer-token")}\\" https://api.example.com"}`],
];

/** Text that looks a bit like a secret and must come back unchanged. */
const LOOK_ALIKES: string[] = [
	// schtasks that asks for the password (`*`), queries and runs; paths with `\` as a command's arguments.
	'schtasks /create /ru SYSTEM /rp * /tn x\nschtasks /query /fo LIST /v\nschtasks /run /tn Backup\nsetx PATH "C:\\Tools\\bin"\necho C:\\new\\temp',
	// Counts of tokens, lists of key names, options naming no secret, a hash-keyed cache's key, prose with blanks as typed.
	`max_tokens: 200000\n"cache_read_input_tokens": 1234567\nMAX_TOKENS=100000\nconst tokenRatio = baseTokens > 0 ? curTokens / baseTokens : null;`,
	"SORT_KEYS=created_at,updated_at\nALLOWED_KEYS=name,email\ngit log --sort-key updated_at --primary-key id --ssh-key ~/.ssh/id_ed25519 --service-key $SERVICE_KEY",
	`key: Linux-node-${t.sha256}\nkey: ${t.sha256}`,
	"the key  is the one in the vault, the token  is my-service-token-2024, key: value pairs",
	// The shape of a Discord bot token, but its first part is no user id in base64.
	"services.AddSingleton<MyApplicationConfigurator.Loader.ExtensionMethodsForServiceCollection>();",
	// Found in the bench tree (real transcripts) when its redaction was compared with gitleaks' rules.
	'token_usage_str = " | ".join(token_parts)',
	'token_summary = "Token usage – "',
	"commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Dev <dev@example.com>",
	"request id 123e4567-e89b-12d3-a456-426614174000 took 12ms",
	"This risk-free task-based desk-top app uses a disk-backed cache.",
	'<div class="sk-spinner sk-spinner-wave sk-circle-bounce-delay"></div>',
	"Forgot your password? Reset your password and we'll email a token to you.",
	"TOKEN_LIMIT=4096\nMAX_TOKENS=8192\ntoken_budget: 20000",
	"npm i -D @types/node typescript && cat src/auth/token.ts ~/.ssh/id_rsa.pub",
	`const stripe = loadStripe("${t.stripePublishable}");`,
	'password = f"{prefix}-{suffix}"',
	"const password = req.body.password;\nthis.password = password;\nlet token = await getToken();",
	"AWS_REGION=us-east-1\nAWS_PROFILE=dev",
	"env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n  NPM_TOKEN=${NPM_TOKEN}\n  API_KEY=$API_KEY",
	"Contact alice@example.com or https://example.com/path?x=1",
	"ssh deploy@10.0.0.5 'uptime' && git clone git@github.com:acme/app.git",
	"Released v1.2.3-beta.4 with node@20.11.1 and sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	"API_KEY=<your-api-key>\nOPENAI_API_KEY=sk-...\nSECRET=your_api_key_here\nPASSWORD=changeme\nDB_PASSWORD=********\nTOKEN=xxxxxxxx\nAUTH_TOKEN=",
	"PWD=/home/me/project\nOLDPWD=/home/me\nSSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.123",
	"interface Credentials {\n  password: string;\n  token?: string;\n}",
	'if (pem.startsWith("-----BEGIN PRIVATE KEY-----")) return parse(pem);',
	"Authorization: `Bearer ${token}`\ncurl -H \"Authorization: Bearer $TOKEN\" https://api.example.com",
	"DATABASE_URL=postgres://user:${DB_PASS}@localhost/db and https://user@example.com/x",
	"docker run -u 1000:1000 alpine id",
	// A short prefix inside a base64url string or a slug is not a key's start.
	"cursor Zm9vYmFy-sk-AbCdEfGh1234567890abcdEFGH_x and task_SK0123456789abcdef0123456789abcdef and api-key-0123456789abcdef0123456789abcdef",
	"The token: it expires after an hour. Your password: keep it safe.",
	"AUTH_URL=https://auth.example.com/oauth\nTOKEN_TTL=3600\nPASSWORD_MIN_LENGTH=12",
	"jobs:\n  release:\n    secrets: inherit\n    auth: required",
	"[redacted:github-token] and DB_PASSWORD=[redacted:password] stay as they are",
	"password: ${DB_PASSWORD:-default}\nThe session used 12,345 tokens; token count: 5000.",
	'auth = HTTPBasicAuth(user, pw)\nrequests.get(url, auth=("user", "pass"))\nconst apiKey = process.env.ANTHROPIC_API_KEY ?? "";',
	"git push -u origin main && sort -u words.txt",
	'{"token_type": "Bearer", "private_key_id": "k1", "input_tokens": 123456}',
	// htpasswd without a password on its line: it asks, reads stdin, takes a variable; and prose.
	"htpasswd -c /etc/nginx/.htpasswd admin\nhtpasswd -nb user $PASSWORD\nhtpasswd -ib .htpasswd admin < pw.txt",
	"htpasswd -b takes the password on the command line, which leaks it to the shell history",
	// Percent-encoded text without a credential: a search, a redirect, a path, a timestamp.
	"https://www.google.com/search?q=reset%20password%20token%20expired&hl=en",
	"https://accounts.example.com/o/oauth2/auth?redirect_uri=https%3A%2F%2Fexample.com%2Fcallback&scope=openid%20profile&state=xyz",
	"next=%2Fsettings%3Ftab%3Dtokens and since=2026-12-04T10%3A00%3A00Z and file=my%5Fnotes%2Dv2.txt",
	"The token%20budget is 100%25 used; api_key%3D%24API_KEY",
	// Base64 of harmless text: a URL without a password, a certificate, a JWT's header, JSON without a secret, an image.
	`SITE_URL: ${b64("https://example.com/app")}\nCA: ${b64("-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n")}`,
	`header ${b64('{"alg":"HS256","typ":"JWT"}')} and config ${b64('{\n  "token_type": "Bearer",\n  "expires_in": 3600\n}')}`,
	`${b64('{"password": "${DB_PASSWORD}"}')} and ${b64("DB_PASSWORD=changeme\n")}`,
	"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
	// The word Basic before ordinary words, and base64 that decodes to no `user:password`.
	`Basic setup, Basic authentication, Basic ABCDEFGHIJKL and Basic ${b64("no colon here")} and Basic ${b64("user:")}`,
	'echo -n "$USER:$PASS" | base64 && echo -n "admin:${ADMIN_PASSWORD}" | base64',
	// Options that describe a secret or switch something on, and commands whose -p is no password.
	"npm run build -- --token-file ./tok --pass-through foo --max-tokens 4096 --tokenizer gpt2 --auth-type basic",
	"docker login --password-stdin 123456789012.dkr.ecr.us-east-1.amazonaws.com\ngh auth login --with-token < token.txt",
	"mysql -u root --password shop\nkubectl create secret tls web --key tls.key --cert tls.crt\nssh --private-key id_rsa host",
	"openssl req -passout env:KEY_PASS -passin file:pw.txt -new\nmongosh -u admin -p\nldapsearch -x -W -b dc=acme\npytest -k test_password -p no:cacheprovider",
	"git log --author alice -p src && mongod --port 27017 && echo $TOKEN | docker login ghcr.io -u me --password-stdin",
	"<key>CFBundleName</key><password>${DB_PASS}</password><token></token>\n<add key=\"TokenEndpoint\" value=\"https://login.example.com/token\" />",
	"machine github.com login octocat password $GITHUB_TOKEN\nThis machine has no password set.",
	// Base64 with no name of a secret: an integrity hash, a public key, a key's id or ARN, code that makes a key.
	`"integrity": "sha512-${t.awsSecret}${t.awsSecret.slice(0, 46)}=="\nPUBLIC_KEY=${t.awsSecret.slice(0, 43)}=\nENCRYPTION_KEY_ID=${t.genericSecret}\nKMS_MASTER_KEY_ARN=arn:aws:kms:eu-west-1:123456789012:key/1234abcd`,
	"const encryptionKey = crypto.randomBytes(32);\nmasterKey: string;\nhmacKey = await deriveKey(pw)",
	// Archives without a password on the line (`-e` and a bare `-p` ask), Python's zip, and prose.
	"zip -r out.zip dir && unzip -l out.zip && unzip -o build.zip -d out",
	"zip -e secure.zip notes.txt && 7z a -p archive.7z dir && 7z x archive.7z -o/tmp/out -y",
	"for a, b in zip(xs, ys): print(a, b)\nzip -P takes the password on the command line\nrsync -avz backup.zip -P deploy@host:/srv",
	'7z a -mhe=on -p"$ARCHIVE_PASS" a.7z d && zip -P "$ZIP_PASSWORD" out.zip f',
	// openssl without a password on the line: a key file, a reference, none.
	"openssl enc -d -aes-256-cbc -pbkdf2 -in f.enc -out f && openssl enc -aes-256-cbc -kfile key.txt -in f -k $PASS",
	// rabbitmqctl listing users, asking for the password, a usage line and prose.
	"rabbitmqctl list_users && rabbitmqctl add_user deploy\nrabbitmqctl add_user <username> <password>\nrabbitmqctl add_user admin with a password",
	// The .pgpass format as documented, placeholders, and what has its shape: compiler and grep output, times, hex.
	"hostname:port:database:username:password\n*:*:*:*:*\nlocalhost:5432:*:postgres:*\necho \"*:*:*:*:password\" > ~/.pgpass",
	"app.ts:12:5:error:unused\nmain.c:12:5: error: expected ';'\n10:00:00:12:34\nab:12:cd:34:ef\nfe80:1234:abcd:ef01:2345\nlocalhost:5432:app:deploy:$PGPASS",
	// Vault, ssh-keygen, Oracle, mysqladmin and passwd without a secret on the line.
	"vault login\nvault login -method=github token=$GH_TOKEN\nvault login -",
	"ssh-keygen -t ed25519 -N '' -f ~/.ssh/id_ed25519 && ssh-keygen -l -f key.pub && ssh-keygen -t rsa -N \"\" -C me@x",
	"sqlplus / as sysdba\nsqlplus -s /nolog\nsqlplus user/password@db\nmysqladmin -u root -p password\necho $PW | passwd --stdin deploy",
	"redis-cli -a '$REDIS_PASSWORD' ping && sshpass -p\"$SSHPASS\" ssh h",
	// JSON-escaped quotes around a reference, and sudo without a password on stdin (pacman's -S is no sudo's).
	'{"command": "sshpass -p \\"$SSHPASS\\" ssh h && deploy --password \\"${DB_PASSWORD}\\" && zip -P \\"$ZIP_PW\\" o.zip f"}',
	"echo y | sudo pacman -S vim && echo $PW | sudo -S true && sudo -s && echo done | sudo tee -a /var/log/x",
	// net user without a password on the line (it lists, asks with *, deletes), and prose.
	"net user\nnet user deploy\nnet user deploy * /add\nnet user deploy /delete\nnet user %USERNAME% %NEW_PASSWORD%\nrun net user to list accounts",
	// useradd and openssl passwd without a password or a hash on the line; a hash from a variable.
	'useradd -m -s /bin/bash deploy && useradd -p "$HASH" ci && usermod -aG docker deploy\nopenssl passwd -6 -stdin < pw.txt && openssl passwd -1 "$PW"',
	// lftp that asks, rclone and mc without a secret on the line, MinIO's documented default (a plain word), Heroku's ids.
	"lftp -u deploy sftp://files.example.com && lftp -u deploy,$FTP_PASS ftp.example.com\nrclone config create gd drive scope drive && rclone config show && rclone obscure -",
	"mc alias set local http://localhost:9000 minioadmin minioadmin && mc alias set s3 $S3_URL $ACCESS $SECRET && mc alias list",
	"heroku apps:info -a shop\nId: 01234567-89ab-4cde-8f01-23456789abcd\nheroku auth:token\nError: not logged in\n01234567-89ab-4cde-8f01-23456789abcd",
	"plink -pw $PW admin@h && nmcli --ask device wifi connect HomeNet && nmcli con show HomeNet | grep wifi-sec.psk",
	// ipmitool, psexec and cmdkey without a password on the line (from the environment, a file, a variable; /pass alone asks).
	"ipmitool -I lanplus -H bmc -U admin -E chassis status && ipmitool -H bmc -U admin -f pw.txt sdr && ipmitool -H bmc -U admin -P $IPMI_PASSWORD power on",
	"psexec \\\\srv01 -u CORP\\admin cmd /c whoami && psexec -s -i cmd.exe && psexec \\\\srv01 -u admin -p %ADMIN_PW% cmd",
	"cmdkey /list && cmdkey /add:srv01 /user:CORP\\admin /pass && cmdkey /delete:srv01 && cmdkey /add:srv02 /user:admin /pass:%SRV_PW%",
	// net use without a password: none given, `*` asks, an empty one, a deletion, variables, prose.
	'net use Z: \\\\fs01\\builds /persistent:yes\nnet use \\\\fs01\\builds * /user:CORP\\deploy\nnet use \\\\fs01\\IPC$ "" /user:guest\nnet use Z: /delete\nnet use %DRIVE% \\\\fs01\\share %SHARE_PW% /user:x\nrun net use \\\\fs01\\builds to map it first',
	// curl's bearer token from a variable or a command, and prose.
	'curl --oauth2-bearer "$TOKEN" https://api.example.com && curl --oauth2-bearer $(gcloud auth print-access-token) https://x.example.com\nthe --oauth2-bearer option sets the header',
	// Here-strings that are no password for sudo -S, and printf's format string with no value or a variable after it.
	'sudo -S <<< "$SUDO_PASS" true && sudo -S id <<< $PW && cat <<< "hello world" && sudo -s <<< whoami',
	"printf '%s\\n' \"$PW\" | sudo -S true && printf '%s\\n' | sudo -S id && printf '%s' \"$TOKEN\" | docker login --password-stdin ghcr.io",
	// Arrow functions (no hash's `=>`), a sigil's bare value (a command, a call, a constant), the working directory by any spelling but after a `;`.
	"const f = token => token.trim();\nusers.map(password => password.length)\n$password = Read-Host -AsSecureString\n$token = $request->input('token');\n'password' => env('DB_PASSWORD'),\n$apiKey = SOME_CONSTANT;\n$pwd = Get-Location\nPWD=/home/me\npwd=$(pwd)\ncd $PWD;pwd=/srv/app",
	// Commands that set a variable without a secret on the line: a reference, a command's output, a name naming none, an erase or a query, prose.
	"set -x\nset -euo pipefail\nset -e API_KEY\nset -q GITHUB_TOKEN; and echo ok\nset -gx API_KEY $OPENAI_KEY\nset -x TOKEN (cat ~/.token)\nset -x makes bash print each command",
	'setx PATH "%PATH%;C:\\bin" /M\nsetx API_KEY %API_KEY%\nsetenv EDITOR vim; launchctl setenv API_TOKEN $TOKEN\nENV NODE_ENV production\nENV API_KEY=\nARG NPM_TOKEN\nENV NPM_TOKEN ${NPM_TOKEN}\nENV API_KEY should be set at run time',
	'git config --get github.token\ngit config --global user.name "Jane Doe"\ngit config --unset github.token\ngit config credential.helper store\ndotnet user-secrets list && dotnet user-secrets set "Stripe:SecretKey" "$STRIPE_KEY"',
	"Set the auth_token field, then the auth_token value is read; the auth_token header holds it.",
	// Lines of a name and a value that are no configuration's: headings, words, placeholders, references, numbers, more words.
	"Password Policy\npassword reset\nToken Budget\nSecret Sauce\nkey value\npassword changeme\ntoken ${TOKEN}\nToken 1234\npasskey enabled\nrequirepass\napi_key your-api-key-here\nauth_token zq8Xk2mP9vLr4TtY7wNc3HbJ is what it printed\nthe password hunter22",

	// Setters' calls without a secret: a name naming none, a call, a variable, a word (a label, a message), a phrase.
	'[Environment]::SetEnvironmentVariable("PATH", "C:\\bin", "User")\nos.Setenv("API_KEY", os.Getenv("X"))\nform.setError("password", "Invalid")\nt.add("token", "Token")\nlocalStorage.setItem("token", token)\nmap.put("password", "required")\ndefine(\'AUTH_KEY\', \'put your unique phrase here\');',
	// Named setters, defaults and Go declarations without a secret: a variable, a phrase, one word, a placeholder, a reference, a name naming none, a path.
	'setToken(token)\nsetPassword("Invalid password")\nuseToken("session")\nuseAuth("github")\nsetApiKey(process.env.KEY)\nsetAuthToken("")\nwithAuth("Bearer " + token)\ngetToken("Zq8vT3mW9xK2pL5nR7bY4cH6")\nsetTokenExpiry("3600s")',
	'os.getenv("API_KEY", "")\nos.getenv("API_KEY", "your-api-key-here")\nconfig.get("secret_key", "dev")\nheaders.get("Authorization", "")\nos.environ.get("DB_PASSWORD", "postgres")\nprocess.env.API_KEY || "changeme"\nenv.API_URL || "http://localhost:3000"\n${API_KEY:-}\n${TOKEN:-${DEFAULT_TOKEN}}\n${API_TOKEN:-$FALLBACK}',
	'name string = "api"\ntokenType string = "Bearer"\nvar tokenPath string = "/etc/token"\nif apiKey string == "x" {}',
	// Subscripts without a secret: a bare key (a variable), a call, a comparison.
	'cache[token] = userId\nos.environ["API_KEY"] = os.getenv("X")\nif cfg["token"] == "abc": pass\nconfig["password"] = input()',
	// Values named by another field or element that are no secret: a name naming none, a reference, a type, a variable, an empty value.
	'<setting name="ApiKeyHeader" serializeAs="String"><value>X-Api-Key</value></setting>\n<property name="password"><value>${DB_PASSWORD}</value></property>\n<setting name="Theme"><value>dark</value></setting>',
	'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n        key: password\n  - name: API_KEY\n    value: $(API_KEY)\n{"name": "token", "value": "${TOKEN}"}, {"name": "password", "type": "string"}',
	'apiKey={"value": null}\n"token": {"value": "", "expires": 3600}\ninterface Props { password: { value: string } }',
	'variable "db_password" {\n  type      = string\n  sensitive = true\n}\nvariable "region" { default = "eu-west-1" }\nvariable "api_key" { default = var.fallback_key }',
	// Typed declarations without a secret: a call, a reference, an empty string, a type alone.
	'api_key: str = Field(default=None)\ntoken: string = process.env.TOKEN ?? "";\nfunction f(password: string = "") {}\nlet secret: String? = nil\ninterface A { apiKey: string; token?: string | undefined }',
	// Vaults and SecureStrings without a secret on the line: read from a file or a variable, a plain parameter, an encrypted string.
	'az keyvault secret set --vault-name kv --name tls --file cert.pem\naws secretsmanager put-secret-value --secret-id x --secret-string file://s.json\naws ssm put-parameter --name /app/region --type String --value eu-west-1\n$s = ConvertTo-SecureString $enc -Key $key\n$p = ConvertTo-SecureString $env:PW -AsPlainText -Force',
	// JSON-escaped quotes around references, for base64 and a .netrc entry.
	'{"command": "echo -n \\"$USER:$PASS\\" | base64 && base64 <<< \\"admin:${ADMIN_PW}\\" && echo \\"machine h login u password \\\\\\"$NETRC_PW\\\\\\"\\" >> ~/.netrc"}',
];

describe("redactSecrets: real-format secrets", () => {
	it("covers at least 30 examples", () => {
		expect(SECRETS.length).toBeGreaterThanOrEqual(30);
	});

	it.each(SECRETS)("%s (#%#)", (_kind, input, expected) => {
		expect(redactSecrets(input)).toBe(expected);
	});

	it("reports each replacement's kind", () => {
		for (const [kind, input] of SECRETS) {
			const report = createRedactor().redactWithReport(input);
			expect(report.byKind[kind], input).toBeGreaterThanOrEqual(1);
			expect(report.count).toBe(Object.values(report.byKind).reduce((a, b) => a + b, 0));
		}
	});
});

describe("redactSecrets: a token a clip cut short (`…` at the end)", () => {
	it.each([
		["the key is ghp_Zq8Xw2Vr5Ty7Ub3Nm9Lk1Jh4Gf6Ds0A…", `the key is ${m("github-token")}…`],
		["model claude-ghp_Zq8Xw2Vr5T…", `model claude-${m("github-token")}…`],
		["tool mcp__sk-proj-Qw3Er5Ty7U…", `tool mcp__${m("openai-api-key")}…`],
		['"key": "sk-ant-api03-AbCdEf…', `"key": "${m("anthropic-api-key")}…`],
		["creds AKIAIOSFODNN7E…", `creds ${m("aws-access-key")}…`],
		["cut at once: ghp_Zq…", `cut at once: ${m("github-token")}…`],
		['{"job": "dapi3a18f6d4b2907e5c3a…', `{"job": "${m("databricks-token")}…`],
		["pulumi login pul-3a18f6d4b29…", `pulumi login ${m("pulumi-token")}…`],
		["REPLICATE r8_dJpvc5kr6aGm4…", `REPLICATE ${m("replicate-api-token")}…`],
		["key v1.0-3a18f6d4b2907e5c3a18f6d4-3a18f6…", `key ${m("cloudflare-origin-ca-key")}…`],
		["grafana glsa_Ab3dEf9hIj1lMn_0f…", `grafana ${m("grafana-token")}…`],
		["bot token 7123456789:AAHdqTcvCH1vGWJxfSeofSAs0K…", `bot token ${m("telegram-bot-token")}…`],
		["https://api.telegram.org/bot7123456789:AAHdq…", `https://api.telegram.org/bot${m("telegram-bot-token")}…`],
		["ref:ghp_Zq8Xw2Vr5Ty7Ub…", `ref:${m("github-token")}…`],
		// A Discord bot's token: its first part (a user id in base64) and the `.` after it.
		["bot token MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1X…", `bot token ${m("discord-bot-token")}…`],
		["python bot.py MTk4NjIyNDgzNDcxOTI1MjQ4.Cl…", `python bot.py ${m("discord-bot-token")}…`],
	])("%s", (input, expected) => {
		expect(redactSecrets(input)).toBe(expected);
		expect(redactSecrets(expected)).toBe(expected);
	});

	it("finds the cut token at the start of the text, and within the last 400 characters only", () => {
		expect(redactSecrets("ghp_Zq8Xw2Vr5Ty7Ub…")).toBe(`${m("github-token")}…`);
		// A run of token characters longer than the look-back: its last 399 are the token looked at.
		expect(redactSecrets(`${"a".repeat(500)}ghp_Zq8Xw2Vr5Ty7Ub…`)).toBe(`${"a".repeat(500)}ghp_Zq8Xw2Vr5Ty7Ub…`);
		expect(redactSecrets(`${" ".repeat(500)}ghp_Zq8Xw2Vr5Ty7Ub…`)).toBe(`${" ".repeat(500)}${m("github-token")}…`);
		// A run that starts with `_` is not a token's start.
		expect(redactSecrets("x _ghp_Zq8Xw2Vr5Ty7Ub…")).toBe("x _ghp_Zq8Xw2Vr5Ty7Ub…");
	});

	it.each(["the dapi_version…", "pul-request…", "v1.0-beta…", "run npm_package_version…", "pip install sk-learning…", "see ghp_a…", "ghp_Zq8Xw2Vr5Ty7Ub3Nm9Lk1 then more text", "npm_config_cache2…", "the hf_hub_download…", "at 12:30:45.123…", "build 2026.12.04:AAA…", "id MTk4NjIyNDgzNDcxOTI1MjQ4…", "services.AddSingleton<MyApplicationConfigurator.Loader.Exte…"])("keeps %s", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("redactSecrets: look-alikes", () => {
	it.each(LOOK_ALIKES)("keeps look-alike #%#", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("redactSecrets: shapes of text", () => {
	const pem = (label: string, nl: string): string => `-----BEGIN ${label}-----${nl}${t.pemBody.join(nl)}${nl}-----END ${label}-----`;

	it("replaces a multi-line private key block, keeping the text around it", () => {
		for (const label of ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "DSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK"]) {
			expect(redactSecrets(`$ cat key.pem\n${pem(label, "\n")}\n$ ls\n`)).toBe(`$ cat key.pem\n${m("private-key")}\n$ ls\n`);
		}
	});

	it("replaces an encrypted PEM with header lines", () => {
		const key = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n${t.pemBody.join("\n")}\n-----END RSA PRIVATE KEY-----`;
		expect(redactSecrets(`before\n${key}\nafter`)).toBe(`before\n${m("private-key")}\nafter`);
	});

	it("replaces a password given as a command's option and a secret given to `config set`, a blank before the value", () => {
		const cases: [string, string][] = [
			["sshpass -p Hq7zK2mPx9 ssh root@h", `sshpass -p ${m("password")} ssh root@h`],
			["redis-cli -h cache -a Zm4xQ8vL2p ping", `redis-cli -h cache -a ${m("password")} ping`],
			["docker login -u me -p Kq8vZ2xP4w registry.io", `docker login -u me -p ${m("password")} registry.io`],
			["podman login --password=Kq8vZ2xP4w quay.io", `podman login --password=${m("password")} quay.io`],
			["aws configure set aws_secret_access_key wJalrXUtnFEMI7K7MDENGbPxRfiCYEXAMPLEKEY", `aws configure set aws_secret_access_key ${m("secret")}`],
			["aws configure set --profile prod aws_session_token FwoGZXIvYXdzEBYaDH2kq", `aws configure set --profile prod aws_session_token ${m("secret")}`],
			["npm config set //registry.npmjs.org/:_authToken abcd1234efgh5678ijkl", `npm config set //registry.npmjs.org/:_authToken ${m("secret")}`],
		];
		for (const [input, output] of cases) expect(redactSecrets(input), input).toBe(output);
		// What holds no secret stays: a reference, the flag that reads stdin, a key of no secret.
		for (const kept of ["docker login -p $TOKEN", "echo $PW | docker login --password-stdin registry.io", "aws configure set region us-east-1", "npm config set registry https://registry.npmjs.org/", "redis-cli -a"]) expect(redactSecrets(kept)).toBe(kept);
	});

	it("reports each secret of one command line, of its own kind", () => {
		const report = createRedactor().redactWithReport("ssh-keygen -p -f k -P Old7xQ2vZp -N New9Kq4wLm && openssl enc -k Pw3xZq8vLm -K 0f1e2d3c4b5a69788796a5b4c3d2e1f0 -in f");
		expect(report.byKind).toEqual({ password: 3, secret: 1 });
		expect(report.text).toBe(`ssh-keygen -p -f k -P ${m("password")} -N ${m("password")} && openssl enc -k ${m("password")} -K ${m("secret")} -in f`);
	});

	it("replaces a JSON-escaped private key (service account file)", () => {
		const json = `{"type": "service_account", "private_key": "${pem("PRIVATE KEY", "\\n")}\\n", "client_email": "bot@p.iam.gserviceaccount.com"}`;
		expect(redactSecrets(json)).toBe(`{"type": "service_account", "private_key": "${m("private-key")}\\n", "client_email": "bot@p.iam.gserviceaccount.com"}`);
		// JSON inside JSON (kubectl's last-applied-configuration, a Terraform state): every escape doubled, and again.
		for (const times of [1, 2, 3]) {
			const inner = JSON.stringify(json).slice(1, -1);
			const nested = times === 1 ? inner : times === 2 ? JSON.stringify(inner).slice(1, -1) : JSON.stringify(JSON.stringify(inner)).slice(1, -1);
			const out = redactSecrets(`{"annotations": {"last-applied": "${nested}"}}`);
			expect(out, `${times}`).toContain(m("private-key"));
			expect(out, `${times}`).not.toMatch(/BEGIN PRIVATE KEY|[A-Za-z0-9+/]{40}/);
			expect(out, `${times}`).toContain("client_email");
		}
	});

	it("replaces a truncated private key up to where its base64 lines stop", () => {
		const text = `-----BEGIN OPENSSH PRIVATE KEY-----\n${t.pemBody[0] ?? ""}\n${t.pemBody[1] ?? ""}\n\n… (output truncated)\nNext step: chmod 600`;
		expect(redactSecrets(text)).toBe(`${m("private-key")}\n\n… (output truncated)\nNext step: chmod 600`);
		expect(redactSecrets(`key:\n-----BEGIN PRIVATE KEY-----\n${t.pemBody[0] ?? ""}`)).toBe(`key:\n${m("private-key")}`);
	});

	it("replaces a key as a file viewer shows it: numbered lines (Claude Code's Read), quoted lines, lone CR line ends, one line", () => {
		const numbered = (arrow: boolean) => [`-----BEGIN RSA PRIVATE KEY-----`, ...t.pemBody, `-----END RSA PRIVATE KEY-----`].map((line, i) => `${String(i + 1).padStart(arrow ? 6 : 0)}${arrow ? "→" : "\t"}${line}`).join("\n");
		expect(redactSecrets(`${numbered(false)}\n`)).toBe(`1\t${m("private-key")}\n`);
		expect(redactSecrets(numbered(true))).toBe(`     1→${m("private-key")}`);
		expect(redactSecrets(`> ${pem("PRIVATE KEY", "\n> ")}\n\nwhy?`)).toBe(`> ${m("private-key")}\n\nwhy?`);
		expect(redactSecrets(`here:\r${pem("PRIVATE KEY", "\r")}\rwhy does ssh reject it?`)).toBe(`here:\r${m("private-key")}\rwhy does ssh reject it?`);
		expect(redactSecrets(`PRIVATE_KEY="${pem("PRIVATE KEY", " ")}"`)).toBe(`PRIVATE_KEY="${m("private-key")}"`);
		// Cut short on its one line: the base64 goes, up to where it stops.
		expect(redactSecrets(`key: -----BEGIN PRIVATE KEY----- ${t.pemBody[0]}…`)).toBe(`key: ${m("private-key")}…`);
	});

	it("replaces a value in a quoted command line, and a mysql password glued to -p", () => {
		expect(redactSecrets(`curl -H "x-api-key: ${t.password}" https://api.example.com/v1`)).toBe(`curl -H "x-api-key: ${m("secret")}" https://api.example.com/v1`);
		expect(redactSecrets(`curl 'https://api.example.com/v1/items?api_key=${t.password}'`)).toBe(`curl 'https://api.example.com/v1/items?api_key=${m("secret")}'`);
		expect(redactSecrets(`mysql -h db.internal -u root -p${t.password} shop`)).toBe(`mysql -h db.internal -u root -p${m("password")} shop`);
		expect(redactSecrets("mysql -u root -p shop && mysqldump -p$MYSQL_PWD shop")).toBe("mysql -u root -p shop && mysqldump -p$MYSQL_PWD shop");
	});

	it("finds a token with an invisible character inside (a zero-width space, a soft hyphen) and keeps a zero-width joiner's emoji", () => {
		const [head, tail] = [t.ghp.slice(0, 12), t.ghp.slice(12)];
		expect(redactSecrets(`copied: ${head}\u200b${tail} and ${t.awsAccess.slice(0, 4)}\u00ad${t.awsAccess.slice(4)}`)).toBe(`copied: ${m("github-token")} and ${m("aws-access-key")}`);
		expect(redactSecrets("family 👨\u200d👩\u200d👧 and a\u200bb")).toBe("family 👨\u200d👩\u200d👧 and ab");
		expect(redactSecrets(`curl 'https://api.example.com/?access_token=ghp%5F${t.ghp.slice(4)}'`)).toBe(`curl 'https://api.example.com/?access_token=${m("secret")}'`);
	});

	it("replaces a URL's password holding @, / or # unescaped, and one a clip cut short", () => {
		for (const password of [`p@${t.password}`, `pa/${t.password}`, `pa#${t.password}`]) {
			expect(redactSecrets(`postgres://app:${password}@db.internal:5432/shop`)).toBe(`postgres://app:${m("connection-string-password")}@db.internal:5432/shop`);
		}
		expect(redactSecrets(`DATABASE_URL=postgres://app:${t.password}…`)).toBe(`DATABASE_URL=postgres://app:${m("connection-string-password")}`);
		expect(redactSecrets(`DB_PASSWORD=${t.password}…`)).toBe(`DB_PASSWORD=${m("password")}`);
		// A port and a path with an @ in it (a scoped package) are no password.
		expect(redactSecrets("https://registry.example.com:443/@scope/pkg and http://host:8080/a@b")).toBe("https://registry.example.com:443/@scope/pkg and http://host:8080/a@b");
	});

	it("keeps CRLF line ends", () => {
		const env = `DB_HOST=db\r\nDB_PASSWORD=${t.password}\r\nGITHUB_TOKEN=${t.ghp}\r\n`;
		expect(redactSecrets(env)).toBe(`DB_HOST=db\r\nDB_PASSWORD=${m("password")}\r\nGITHUB_TOKEN=${m("github-token")}\r\n`);
		expect(redactSecrets(`a\r\n${pem("RSA PRIVATE KEY", "\r\n")}\r\nb`)).toBe(`a\r\n${m("private-key")}\r\nb`);
	});

	it("leaves Korean and Japanese text around secrets alone", () => {
		expect(redactSecrets(`배포 토큰은 ${t.ghp} 입니다. 비밀번호를 재설정하세요.`)).toBe(`배포 토큰은 ${m("github-token")} 입니다. 비밀번호를 재설정하세요.`);
		expect(redactSecrets(`토큰${t.ghp}를 사용`)).toBe(`토큰${m("github-token")}를 사용`);
		expect(redactSecrets(`APIキーは${t.openaiProject}です。パスワード：秘密`)).toBe(`APIキーは${m("openai-api-key")}です。パスワード：秘密`);
		expect(redactSecrets(`# 設定\nDB_PASSWORD=${t.password} # 本番用`)).toBe(`# 設定\nDB_PASSWORD=${m("password")} # 本番用`);
	});

	it("is idempotent on every example", () => {
		for (const text of [...SECRETS.map(([, input]) => input), ...LOOK_ALIKES]) {
			const once = redactSecrets(text);
			expect(redactSecrets(once)).toBe(once);
		}
	});

	it("redacts a whole .env dump line by line", () => {
		const env = [`export AWS_ACCESS_KEY_ID=${t.awsAccess}`, `export AWS_SECRET_ACCESS_KEY=${t.awsSecret}`, "export AWS_DEFAULT_REGION=eu-west-1", `export STRIPE_KEY=${t.stripeSecret}`, "export TOKEN_LIMIT=4096"].join("\n");
		expect(redactSecrets(env)).toBe(
			[`export AWS_ACCESS_KEY_ID=${m("aws-access-key")}`, `export AWS_SECRET_ACCESS_KEY=${m("aws-secret-access-key")}`, "export AWS_DEFAULT_REGION=eu-west-1", `export STRIPE_KEY=${m("stripe-key")}`, "export TOKEN_LIMIT=4096"].join("\n"),
		);
	});
});

describe("createRedactor: extra patterns", () => {
	it("replaces matches of valid patterns and reports invalid ones", () => {
		const r = createRedactor({ extraPatterns: ["ACME-[0-9]{6}", "(unclosed", "", "internal\\.example\\.org/[a-z]+"] });
		expect(r.invalidPatterns).toEqual(["(unclosed", ""]);
		expect(r.redact("ticket ACME-123456 at internal.example.org/secret")).toBe(`ticket ${m("custom")} at ${m("custom")}`);
		expect(r.redact(`GITHUB_TOKEN=${t.ghp} ACME-000001`)).toBe(`GITHUB_TOKEN=${m("github-token")} ${m("custom")}`);
	});

	it("ignores empty matches and never rewrites a marker", () => {
		const r = createRedactor({ extraPatterns: ["x*", "redacted", "\\[", "token\\]"] });
		const once = r.redact(`ghp: ${t.ghp} and [x]`);
		expect(once).toBe(`ghp: ${m("github-token")} and ${m("custom")}${m("custom")}]`);
		expect(r.redact(once)).toBe(once);
	});

	it("keeps the built-in rules when no pattern is given", () => {
		const r = createRedactor();
		expect(r.invalidPatterns).toEqual([]);
		expect(r.redact(`key ${t.google}`)).toBe(`key ${m("google-api-key")}`);
	});

	it("a short string redacted again comes out the same, as each redactor's own patterns make it", () => {
		const mine = createRedactor({ extraPatterns: ["ACME-[0-9]{6}"] });
		const plain = createRedactor();
		for (let round = 0; round < 3; round++) {
			expect(mine.redact("ACME-123456")).toBe(m("custom"));
			expect(plain.redact("ACME-123456")).toBe("ACME-123456");
			expect(plain.redact(t.ghp)).toBe(m("github-token"));
			// Past the memo's length, and with a report: redacted each time all the same.
			expect(plain.redact(`${"x ".repeat(100)}${t.ghp}`)).toBe(`${"x ".repeat(100)}${m("github-token")}`);
			expect(mine.redactWithReport("ACME-654321").count).toBe(1);
		}
		// Many distinct strings later (the memo starts again), the first one still comes out redacted.
		for (let i = 0; i < 20_000; i++) plain.redact(`name-${i}`);
		expect(plain.redact(t.ghp)).toBe(m("github-token"));
	});
});

/** Pieces that make rules fire, half-fire and meet each other's output. */
const FRAGMENTS = [
	"sk-", "sk-ant-api03-", "sk-proj-", "ghp_", "github_pat_", "glpat-", "xoxb-", "AKIA", "AIza", "eyJ", "npm_", "hf_", "SG.", "SK", "key-",
	"shpat_", "dop_v1_", "whsec_", "sk_live_", "pypi-AgEIcHlwaS5vcmc", "GOCSPX-", "AccountKey=", "hooks.slack.com/services/", "FOO_SERVICE_KEY=", "9f8a7c6b5e4d3c2b1a0f9e8d7c6b5a49", "the key is ", "token: ", " was ",
	"-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "PASSWORD", "password", "TOKEN", "Secret", "api_key", "apiKey", "AUTH", "PWD",
	"Authorization", "Bearer ", "Basic ", "-u ", "--user=", "export ", "postgres://", "redis://", "https://", "://", "user", ":", "@", "=", "==",
	": ", " ", "\n", "\r\n", "\\n", '"', "'", "`", "$", "${", "{", "}", "[", "]", "(", ")", ";", ",", ".", "-", "_", "/", "+", "[redacted:", "[redacted:password]",
	"%3D", "%3A", "%22", "%20", "%40", "%5F", "%25", "%2F", "htpasswd -b ", "htpasswd -nb ", "echo -n ", " | base64", "Basic dXNlcjpwYXNzd29yZA==", "eyJ", "ewog", "cGFzc3dvcmQ9",
	"Oi8v", "LS0tLS1CRUdJTi", "base64:", "UEFTU1dPUkQ9", "dG9rZW46", "6Ly9", "=", "[redacted:base64-secret]",
	"--password ", "--api-key ", "-storepass ", "pass:", "mongosh -p ", "sqlcmd -P ", "ldapsearch -w ", "smbclient -U u%", "| chpasswd", "--password-stdin", "| gh secret set",
	"<password>", "</password>", 'key="ApiKey" value="', "IDENTIFIED BY '", "PASSWORD '", "machine h login u password ",
	"[redacted:custom]", "abc", "ABCDEFGHIJKLMNOPQRST", "0123456789abcdef0123456789abcdef", "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7s", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "토큰", "パスワード",
];
const fragmentText = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(""));
const anyText = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 200 }), fragmentText);
const hasHint = (s: string): boolean => {
	const lower = s.toLowerCase();
	return REDACTION_HINTS.some((h) => lower.includes(h));
};

describe("redactSecrets: properties", () => {
	it("never throws and is idempotent", () => {
		fc.assert(
			fc.property(anyText, (text) => {
				const once = redactSecrets(text);
				expect(redactSecrets(once)).toBe(once);
			}),
			{ numRuns: 2000 },
		);
	});

	it("is idempotent with extra patterns", () => {
		const r = createRedactor({ extraPatterns: ["abc", "[0-9]{4}", "user"] });
		fc.assert(
			fc.property(fragmentText, (text) => {
				const once = r.redact(text);
				expect(r.redact(once)).toBe(once);
			}),
			{ numRuns: 500 },
		);
	});

	it("finds in one pass exactly the hints a search for each finds, overlapping ones included", () => {
		const hintsIn = hintFinder(REDACTION_HINTS);
		const hintText = fc.array(fc.constantFrom(...REDACTION_HINTS, ...REDACTION_HINTS.map((h) => h.slice(1)), "s", "k", "-", "é", "\u212a"), { maxLength: 30 }).map((p) => p.join(""));
		fc.assert(
			fc.property(fc.oneof(anyText, hintText), (text) => {
				const lower = text.toLowerCase();
				expect([...hintsIn(lower)].sort()).toEqual(REDACTION_HINTS.filter((h) => lower.includes(h)).sort());
			}),
			{ numRuns: 2000 },
		);
	});

	it("finds the hints past characters of every width and in texts longer than its kept buffer", () => {
		const hintsIn = hintFinder(["password", "ghp_"]);
		// A hint right after a two-, three- and four-byte character, and after a lone surrogate.
		expect([...hintsIn("é password")]).toEqual(["password"]);
		expect([...hintsIn("\u2192password")]).toEqual(["password"]);
		expect([...hintsIn("\u{1F600}ghp_")]).toEqual(["ghp_"]);
		expect([...hintsIn("\ud800password")]).toEqual(["password"]);
		// A character past ASCII inside a hint breaks it.
		expect(hintsIn("pass\u00e9word").size).toBe(0);
		// Longer than the piece encoded at a time, a hint across the cut, then a short text again.
		const long = `${"\u2192".repeat(65_534)}ghp_${"x".repeat(10)}`;
		expect([...hintsIn(long)]).toEqual(["ghp_"]);
		expect([...hintsIn("a password")]).toEqual(["password"]);
		// A character of two UTF-16 units cut in two by the piece's end.
		expect([...hintsIn(`${"a".repeat(65_535)}\u{1F600}password`)]).toEqual(["password"]);
		expect(hintsIn(`${"a".repeat(65_535)}\u{1F600}`).size).toBe(0);
	});

	it("refuses a hint it could not look for (past ASCII, or upper case) rather than find nothing anywhere", () => {
		expect(() => hintFinder(["password", "\u2192env "])).toThrow(/not lower-case ASCII/);
		expect(() => hintFinder(["Token"])).toThrow(/not lower-case ASCII/);
		expect(() => hintFinder(REDACTION_HINTS)).not.toThrow();
	});

	it("leaves text without any rule hint unchanged", () => {
		const hintFree = fc.oneof(
			fc.string({ maxLength: 300 }).filter((s) => !hasHint(s)),
			fc.string({ unit: fc.constantFrom(..."0123456789 \n\t.,!?()[]{}<>=:;'\"/@#%&*+~ 한국어日本語テスト"), maxLength: 300 }),
		);
		fc.assert(
			fc.property(hintFree, (text) => {
				expect(redactSecrets(text)).toBe(text);
			}),
			{ numRuns: 1000 },
		);
	});
});

describe("redactSecrets: adversarial input", () => {
	// No timing assertion: catastrophic backtracking would hang these (and the test timeout would
	// fail them); linear rules finish them in milliseconds.
	const MB2 = 2 * 1024 * 1024;
	const fill = (unit: string): string => unit.repeat(Math.ceil(MB2 / unit.length)).slice(0, MB2);
	const inputs: [string, string][] = [
		["a", fill("a")],
		["=", fill("=")],
		["-", fill("-")],
		["base64", fill("aB3+/9zQ")],
		["sk-", fill("sk-")],
		["eyJ.", fill("eyJabcd.")],
		["password=", fill("password=")],
		["open quote", fill('"password": "abc ')],
		["key:", fill("KEY:")],
		["scheme", fill("a://b:c")],
		["bearer", fill("Authorization: Bearer ")],
		["pem", "-----BEGIN PRIVATE KEY-----\n" + fill("-----BEGIN PRIVATE KEY-----\nAAAA\n")],
		["pem lines", "-----BEGIN PRIVATE KEY-----" + fill("\nQUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=")],
		["words", fill("token secret auth pass ")],
		["mixed", fill("x-api-key: ghp_ AKIA sk-ant- eyJ0 :// @ = ")],
		["percent", fill("%3D")],
		["percent key", fill("token%3Da%25")],
		["percent run", `token%3D${fill("a")}`],
		["base64 words", fill("cGFzc3dvcmQ9")],
		["base64 run", `eyJ${fill("QUJD")}`],
		["basic", fill("Basic dXNlcjpw ")],
		["htpasswd", fill("htpasswd -b f u p ")],
		["htpasswd quote", fill("htpasswd -b f u '")],
		["option", fill("--password ")],
		["option values", fill("--api-key a ")],
		["xml", fill("<password>a")],
		["xml pairs", fill('key="password" value="a')],
		["netrc", fill("machine h login u ")],
		["sql", fill("IDENTIFIED BY '")],
		["mongo", `mongosh ${fill("-p ")}`],
		["stdin", `echo a${fill(" ")}| docker login --password-stdin`],
		["zip", fill("zip -P ")],
		["7z", fill("7z a -p")],
		["rabbitmqctl", fill("rabbitmqctl add_user ")],
		["pgpass fields", fill("a:12:b:c:")],
		["pgpass blanks", `\n${fill(" ")}h:5432:d:u:p`],
		["pgpass lines", fill("h:10:d:u:p\n")],
		["pgpass one line", fill("h:5432:db:")],
		["mysql option", `mysql ${fill("--password shop ")}`],
		["pgpass echo", `echo "h:1:d:u:${fill("p")}`],
		["json quotes", fill('zip -P \\"a')],
		["json option", fill('--password \\"a ')],
		["json sshpass", `sshpass ${fill('-p \\"')}`],
		["net user", fill("net user a ")],
		["lftp", `lftp ${fill(" -u a,")}`],
		["rclone pairs", `rclone config create r s3 ${fill("pass ")}`],
		["mc", fill("mc alias set a http://h b ")],
		["sudo", `echo a${fill(" ")}| sudo -S true`],
		["sudo flags", `echo a | sudo${fill(" -k")}`],
		["heroku", fill("heroku auth:token\n ›\n")],
		["discord cut", `${fill("MTk4NjIyNDgzNDcxOTI1MjQ4.")}…`],
		["net use", fill("net use \\\\h\\s a ")],
		["net use shares", `net use ${fill("\\\\h ")}`],
		["net use switches", `net use \\\\h\\s ${fill("/user:a\\")}`],
		["netrc backslashes", `machine h login u password ${fill("\\")}`],
		["netrc json quotes", fill('machine h login u password \\\\"a')],
		["netrc quotes", `machine h login u password a${fill('"a')}`],
		["sudo here-string", fill("sudo -S <<< ")],
		["sudo here-string far", `sudo -S ${fill("a ")}<<< p`],
		["printf", `printf '%s\\n' a${fill(" ")}| sudo -S true`],
		["psexec", `psexec ${fill(" -p ")}`],
		["cmdkey", `cmdkey ${fill(" /pass:")}`],
		["oauth2-bearer", fill("--oauth2-bearer ")],
		["base64 json", fill('echo -n \\"a:b\\\\')],
		["laravel", fill("base64:")],
		["laravel runs", fill("APP_KEY=base64:QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo")],
		["bare key names", fill("FOO_SERVICE_KEY=")],
		["bare key values", `FOO_KEY=${fill("a1B-")}`],
		["bare key pairs", fill("fooKey: a1b2c3d4e5f6a7b8c9d0e1f2 ")],
		["prose", fill("the key is ")],
		["prose values", fill("token: aB3dE5gH7jK9mN1p")],
		["prose names", fill("a_b-c_d-e_f_key: ")],
		["prose long value", `the secret is ${fill("aB3+")}`],
		["prose blanks", fill("key        ")],
		["prose base64url values", fill("key: aB3-dE5_gH7jK9mN1p ")],
		["option bare keys", fill("--service-key aB3dE5gH7jK9mN1pQr ")],
		["plural names", fill("API_KEYS=")],
		["continuations", fill("a \\\n")],
		["continued parts", fill("a\\\nb\n")],
		["continued keys", fill("password=\\\n x\n")],
		["backslashes", `${fill("\\")}\n`],
		["quotes over lines", fill('password: "abc\n')],
		["xml lines", fill("<password>\n")],
		["keys ending lines", fill('"client_secret":\n')],
		["backticks", fill("a `\n")],
		["backtick keys", fill("$env:API_KEY = `\n")],
		["carets", fill("^\n")],
		["caret keys", fill("set API_KEY=^\n")],
		["triple quotes", fill('password = """')],
		["triple quotes open", `password = """${fill("a\n")}`],
		["triple single quotes", fill("password = '''a")],
		["quotes in triple quotes", `password = """${fill('"')}`],
		["xml attributes", `<add${fill(' k="v"')}`],
		["xml named", fill('<add key="ApiKey" ')],
		["xml entries", fill('<entry key="token">a')],
		["xml bare attributes", `<a ${fill("b ")}`],
		["xml long attributes", fill('<a b="' + "x".repeat(1000))],
		["triple quotes, some closed", fill('k = """a"""\npassword = """')],
		["escaped line ends", fill("\\n")],
		["escaped keys", fill("API_KEY=a\\n")],
		["escaped quotes", fill('\\"password\\": \\"')],
		["escaped twice", fill("\\\\n")],
		["escaped hints", fill("token\\n")],
		["escaped hints, one line", `"${fill("token ")}\\n"`],
		["unicode escapes", fill("\\u003c")],
		["escaped twice, keys", fill('\\\\\\"password\\\\\\": \\\\\\"x')],
		["escaped secrets", `"${fill("API_KEY=aB3dE5gH7jK9mN1pQ\\n")}"`],
		["escaped quotes and lines", fill('\\n"a=1" ')],
		["entities", fill("&lt;")],
		["entity tags", fill("&lt;password&gt;")],
		["entity elements", fill("&lt;password&gt;a&lt;/password&gt;\n")],
		["numeric entities", fill("&#")],
		["set names", fill("set -x API_KEY ")],
		["set flags", `set ${fill("-x ")}`],
		["setx switches", `setx ${fill("/s a ")}`],
		["env lines", fill("ENV API_KEY aB3dE5gH7jK9mN1pQ\n")],
		["git config", fill("git config a.token ")],
		["setter calls", fill('set("token", "a1", ')],
		["setter names", fill("setX(")],
		["subscripts", fill('["token"]')],
		["subscript keys", fill('x["token"] = ')],
		["value children", fill('<setting name="ApiKey">\n  <value>')],
		["named fields", fill('{"name": "API_KEY", "value": ')],
		["named field names", fill("name: a_token\n")],
		["object values", fill('apiKey={"value":')],
		["terraform variables", fill('variable "api_key" { a = b ')],
		["typed keys", fill("apiKey: Map<string, ")],
		["typed key unions", fill("token: a | b | c = ")],
		["escaped continuations", fill("password=\\\\\\n x\\n")],
		["escaped continued parts", `"${fill("a \\\\\\n")}"`],
		["configuration lines", fill("db.password Zq8vT3mW9xK2\n")],
		["configuration names", fill("api_key ")],
	];

	it.each(inputs)("completes on 2 MB of %s", (_name, text) => {
		const out = redactSecrets(text);
		expect(typeof out).toBe("string");
	});

	it("reads keys whose value is empty on their own line in linear time (a `.env` of empty keys, no CR in it)", () => {
		// A look back for a CR the text lacks ran to its start at each key: 40,000 lines took 4 s, now 0.1 s.
		const text = "API_KEY=\n".repeat(40_000);
		const started = Date.now();
		expect(redactSecrets(text)).toBe(text);
		expect(Date.now() - started).toBeLessThan(1_500);
	});
});

describe("the user's own patterns", () => {
	it("run in linear time: `(a+)+$` over 100,000 characters does not hang, and still redacts what it matches", () => {
		const redactor = createRedactor({ extraPatterns: ["(a+)+$", "ticket-[0-9]+"] });
		const hostile = `${"a".repeat(100_000)}b`;
		const started = Date.now();
		expect(redactor.redact(hostile)).toBe(hostile);
		expect(redactor.redact("see ticket-4711 and aaa")).toBe("see [redacted:custom] and [redacted:custom]");
		// JavaScript's engine takes exponential time here; RE2 takes well under a second.
		expect(Date.now() - started).toBeLessThan(5_000);
	});

	it("a pattern RE2 cannot run (lookaround, backreferences) is reported and not applied", () => {
		const redactor = createRedactor({ extraPatterns: ["(?<=key=)\\w+", "(x)\\1", "[unclosed"] });
		expect(redactor.invalidPatterns).toEqual(["(?<=key=)\\w+", "(x)\\1", "[unclosed"]);
		expect(redactor.redact("key=abc xx")).toBe("key=abc xx");
	});
});

describe("createRedactor: YAML and .env values as their formats read them", () => {
	it.each([
		["a plain YAML value of several words", "passphrase: tangerine Qx7vLm2 walrus Zp9Kt4", "passphrase: [redacted:password]"],
		["a plain YAML value after a list marker", "- passphrase: tangerine Qx7vLm2 walrus  # rotated", "- passphrase: [redacted:password]  # rotated"],
		["a literal block", "stringData:\n  password: |\n    Wq8vNr4tBz2Lk9Ps\n  user: admin", "stringData:\n  password: |\n    [redacted:password]\n  user: admin"],
		["a folded block with chomping", "client_secret: >-\n    Hy6pRt3sLq0Vx8Zm\n    Lq0Vx8\nnext: 1", "client_secret: >-\n    [redacted:secret]\nnext: 1"],
		["a block in a list item", "- password: |\n    abc\n- user: x", "- password: |\n    [redacted:password]\n- user: x"],
		["a .env value with &", "DB_PASSWORD=Tr0ub4dor&Jx3Kq9Lw", "DB_PASSWORD=[redacted:password]"],
		["a .env value in parentheses", "SMTP_PASSWORD=(Bn5Xc2Mv8Pq)", "SMTP_PASSWORD=[redacted:password]"],
		["an env prefix of a command", "PGPASSWORD=s3cr3tXy psql -h db", "PGPASSWORD=[redacted:password] psql -h db"],
		// The value below its key (a dumper folds a long plain scalar there; INI continues a line so): it was kept whole.
		["a plain YAML value on the line below its key", "db:\n  password:\n    Sup3rS3cretValue99\n  user: admin", "db:\n  password:\n    [redacted:password]\n  user: admin"],
		["an INI value on the line below its key", "[default]\naws_secret_access_key =\n    wJalrXUtnFEMI/K7MDENG/bPxRfiCYATK16EXAMPLEKEY\nregion = eu", "[default]\naws_secret_access_key =\n    [redacted:secret]\nregion = eu"],
	])("%s", (_what, input, expected) => {
		expect(builtIn.redact(input)).toBe(expected);
		expect(builtIn.redact(expected)).toBe(expected);
	});

	it.each(["Token: the one from step 2 is stored in localStorage for the web app", "  password: string | undefined", "  token: z.string().min(8)", "password: |\n  ${DB_PASS}\n", "api_key: ${API_KEY}", "const token = getToken();", "auth:\n  user: admin\n  method: basic", "token:\n  type: string\n  minLength: 8", "secrets:\n  - name: db", "api_key:\n  The key the billing service gives each team, rotated by the platform group every quarter\n"])("keeps %s", (text) => {
		expect(builtIn.redact(text)).toBe(text);
	});
});

describe("createRedactor: a quoted value the clip cut", () => {
	it.each([
		['{"client_secret": "Kq8vN3pLx7Rt2Wz9Ys4U…', '{"client_secret": "[redacted:secret]'],
		['DB_PASSWORD="Hq7zPx2mLt9wQr4sVb8n…', 'DB_PASSWORD="[redacted:password]'],
		["{'password': 'Zm4xWq9Lp2Tr7Yb6Nc3V…", "{'password': '[redacted:password]"],
		['{\\"api_token\\": \\"Zm4xWq9Lp2Tr7Yb6Nc3V…', '{\\"api_token\\": \\"[redacted:secret]'],
	])("%s", (input, expected) => {
		expect(builtIn.redact(input)).toBe(expected);
	});

	it("keeps a cut value that is no secret (a variable, a placeholder)", () => {
		expect(builtIn.redact('"password": "${DB_PASSWORD_FROM_VAULT…')).toBe('"password": "${DB_PASSWORD_FROM_VAULT…');
	});
});

describe("secrets in encoded text", () => {
	it("knows each keyword's base64 at the three places a text can put it", () => {
		for (const word of ["password", "TOKEN", "://", "-----BEGIN"]) {
			const images = base64Images(word);
			expect(images).toHaveLength(3);
			for (let offset = 0; offset < 3; offset++) {
				for (const around of ["", "x", "\u00ff\u00fe"]) {
					const encoded = Buffer.from(`${around}${"ab".slice(0, offset)}${word}${around}`, "latin1").toString("base64");
					const image = images[(around.length + offset) % 3]!;
					expect(image.length, `${word} at ${offset}`).toBeGreaterThanOrEqual(3);
					expect(encoded, `${word} at ${offset}`).toContain(image);
				}
			}
		}
	});

	it("redacts base64 as deep as two payloads and stops there", () => {
		const inner = Buffer.from(`DB_PASSWORD=Hq7zK2mPx9Lw\n`).toString("base64");
		const outer = Buffer.from(`{"env": "${inner}"}`).toString("base64");
		expect(redactSecrets(`blob ${outer}`)).toBe(`blob ${m("base64-secret")}`);
	});

	it("leaves base64 longer than 64 KiB alone, and scans it in linear time", () => {
		const long = Buffer.from(`DB_PASSWORD=Hq7zK2mPx9Lw\n${"x".repeat(60_000)}`).toString("base64");
		expect(redactSecrets(`blob ${long}`)).toBe(`blob ${long}`);
	});

	it("keeps the text around a percent-encoded secret encoded as it was", () => {
		const out = redactSecrets(`open https://x.example/login?next=%2Fhome&token%3D${t.genericSecret}%26lang%3Den now`);
		expect(out).toBe(`open https://x.example/login?next=%2Fhome&token%3D${m("secret")}%26lang%3Den now`);
	});

	it("is a new rule set: models stored under the rules before it are redacted again", () => {
		// The fingerprint of the rules before encoded secrets were found (2026-12-04): a stored model
		// keyed with it is redacted again with these when loaded (see redactionKey).
		expect(builtinRulesId()).not.toBe("nponh8");
		// And before the values in other quoting and escaping (triple quotes, PowerShell's and cmd's continuations, escaped text, XML attributes).
		expect(builtinRulesId()).not.toBe("14ozwn6");
		// And before the assignment forms of 2026-12-05 (commands that set a variable, setters' calls, values named by another field, escaped continuations).
		expect(builtinRulesId()).not.toBe("tya9dd");
		// And before every text of a session's events was redacted (a compaction's trigger was kept).
		expect(builtinRulesId()).not.toBe("1ymyv3v");
		// And before the ids a model keeps beside its events were redacted (a summary's leafUuid; attack round 48a).
		expect(builtinRulesId()).not.toBe("1gbyyok");
		expect(builtinRulesId()).toBe(builtinRulesId());
	});
});

describe("Laravel's APP_KEY", () => {
	// What `php artisan key:generate` makes: `base64:` and 32 random bytes (16 for AES-128) in base64.
	const key = `base64:${Buffer.from(gen(ALNUM, 32)).toString("base64")}`;
	const key16 = `base64:${Buffer.from(gen(ALNUM, 16)).toString("base64")}`;
	it.each([
		[".env", `APP_NAME=Laravel\nAPP_ENV=local\nAPP_KEY=${key}\nAPP_DEBUG=true`, `APP_NAME=Laravel\nAPP_ENV=local\nAPP_KEY=${m("laravel-app-key")}\nAPP_DEBUG=true`],
		["quoted", `APP_KEY="${key}"`, `APP_KEY="${m("laravel-app-key")}"`],
		["YAML", `environment:\n  APP_KEY: ${key}\n  DB_HOST: db`, `environment:\n  APP_KEY: ${m("laravel-app-key")}\n  DB_HOST: db`],
		["a compose list item", `    environment:\n      - APP_KEY=${key}`, `    environment:\n      - APP_KEY=${m("laravel-app-key")}`],
		["artisan's output", `$ php artisan key:generate\nApplication key [${key}] set successfully.`, `$ php artisan key:generate\nApplication key [${m("laravel-app-key")}] set successfully.`],
		["--show", `php artisan key:generate --show\n${key}\n`, `php artisan key:generate --show\n${m("laravel-app-key")}\n`],
		["JSON", `{"APP_KEY": "${key}", "APP_ENV": "production"}`, `{"APP_KEY": "${m("laravel-app-key")}", "APP_ENV": "production"}`],
		["previous keys", `APP_PREVIOUS_KEYS=${key},${key16}`, `APP_PREVIOUS_KEYS=${m("laravel-app-key")},${m("laravel-app-key")}`],
	])("%s", (_what, input, expected) => {
		expect(redactSecrets(input)).toBe(expected);
		expect(redactSecrets(expected)).toBe(expected);
	});

	it("a key a clip cut short", () => {
		expect(redactSecrets("Application key [base64:Zq8Xw2Vr5Ty7Ub…")).toBe(`Application key [${m("laravel-app-key")}…`);
		expect(redactSecrets("encoded as base64:SGVsbG…")).toBe("encoded as base64:SGVsbG…");
	});

	it.each(["APP_KEY=\nAPP_KEY=base64:\nAPP_KEY=${APP_KEY}", "APP_KEY=base64:your-key-here", "'%env(base64:APP_SECRET_KEY_BASE64_ENCODED)%'", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"])("keeps %s", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("a key named only `…_KEY`: its value when it looks random", () => {
	const hex = gen(HEX, 32);
	const b64key = gen(B64, 43) + "=";
	const alnum = gen(ALNUM, 40);
	it.each([
		[".env, hex", `FOO_SERVICE_KEY=${hex}`, `FOO_SERVICE_KEY=${m("secret")}`],
		["export, quoted", `export ZOHO_CLIENT_KEY="${alnum}"`, `export ZOHO_CLIENT_KEY="${m("secret")}"`],
		["YAML", `config:\n  payment_gateway_key: ${b64key}\n`, `config:\n  payment_gateway_key: ${m("secret")}\n`],
		["JSON, camel case", `{"licenseKey": "${hex}", "plan": "pro"}`, `{"licenseKey": "${m("secret")}", "plan": "pro"}`],
		["Laravel's key before base64: keys", `APP_KEY=${alnum.slice(0, 32)}`, `APP_KEY=${m("secret")}`],
		["an XML element", `<ServiceKey>${hex}</ServiceKey>`, `<ServiceKey>${m("secret")}</ServiceKey>`],
		["a value with a separator", `MERCHANT_KEY=live_${hex}`, `MERCHANT_KEY=${m("secret")}`],
	])("%s", (_what, input, expected) => {
		expect(redactSecrets(input)).toBe(expected);
		expect(redactSecrets(expected)).toBe(expected);
	});

	it.each([
		// Public keys and keys that name an id, whatever their value.
		`PUBLIC_KEY=${b64key}\nVAPID_PUBLIC_KEY=${b64key}\nNEXT_PUBLIC_MAPS_KEY=${alnum}\nSTRIPE_PUBLISHABLE_KEY=${alnum}\nRECAPTCHA_SITE_KEY=${alnum}\nALGOLIA_SEARCH_KEY=${hex}`,
		`PUSHER_APP_KEY=${hex.slice(0, 20)}\nVITE_PUSHER_APP_KEY="\${PUSHER_APP_KEY}"\nREVERB_APP_KEY=${alnum.slice(0, 20)}\nREACT_APP_WIDGET_KEY=${alnum}`,
		`STRIPE_KEY=${t.stripePublishable}\nVITE_MAPS_KEY=${alnum}`,
		`SORT_KEY=created_at\nPRIMARY_KEY=id\nCACHE_KEY=${hex}\nPARTITION_KEY=${hex}\nIDEMPOTENCY_KEY=${hex}\n{"cacheKey": "${hex}", "queryKey": "${hex}", "storageKey": "app-settings-v2"}`,
		`GPG_KEY=${hex.slice(0, 16).toUpperCase()}\nROUTING_KEY=orders.created\nHASH_KEY=${hex}`,
		// Values that are no secret: placeholders, references, paths, words, names, ids.
		"FOO_KEY=your-key-here\nFOO_KEY=xxx\nFOO_KEY=<service-key>\nFOO_KEY=${SERVICE_KEY}\nFOO_KEY=changeme\nFOO_KEY=\nFOO_KEY=$FOO\nFOO_KEY=process.env.FOO_KEY",
		"SSL_KEY=/etc/ssl/private/server.key\nTLS_KEY=./certs/tls.key\nDEPLOY_KEY=~/.ssh/id_ed25519\nSERVICE_KEY=C:\\\\keys\\\\svc.pem",
		"MY_SERVICE_KEY=my-service-key-2024\nFOO_KEY=MyServiceKeyName2024\nBAR_KEY=production_key_v2\nBAZ_KEY=ABCDEFGHIJKLMNOPQRSTUV\nQUX_KEY=1234567890123456789",
		`SESSION_KEY=${[8, 4, 4, 4, 12].map((n) => gen(HEX, n)).join("-")}\nTRANSLATION_KEY=checkout.payment.failed\nI18N_KEY=settings.title`,
		"const serviceKey = getServiceKey();\nthis.apiKeyRef = serviceKey;\nlet cacheKey = `${prefix}:${id}`;",
		"key: setup-uv-1-x86_64-unknown-linux-gnu-0.7.13-f6c65b29c82e498115b3dc436b3a85fc046536dc8aedf03c6c5055c9fd414a51",
	])("keeps #%#", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("a secret named in prose", () => {
	const hex = gen(HEX, 32);
	const b64key = gen(B64, 42) + "==";
	const alnum = gen(ALNUM, 40);
	it.each([
		["the key is", `ok, the key is ${b64key} — keep it safe`, `ok, the key is ${m("secret")} — keep it safe`],
		["token:", `I regenerated it, token: ${hex}`, `I regenerated it, token: ${m("secret")}`],
		["backticks", `Your API key is \`${alnum}\`.`, `Your API key is \`${m("secret")}\`.`],
		["quotes, was", `my old password was "${alnum}" before the reset`, `my old password was "${m("password")}" before the reset`],
		["end of a sentence", `The signing secret is ${hex}. Rotate it monthly.`, `The signing secret is ${m("secret")}. Rotate it monthly.`],
		["is:", `The access token is: ${alnum}`, `The access token is: ${m("secret")}`],
	])("%s", (_what, input, expected) => {
		expect(redactSecrets(input)).toBe(expected);
		expect(redactSecrets(expected)).toBe(expected);
	});

	it.each([
		// Hashes, ids and public keys named as keys; a key that is a word or a name.
		"the cache key is 3b4f9a8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a4938271605f4e3d2c and it missed",
		"Cache restored from key: Linux-node-3b4f9a8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a4938271605f4e3d2c",
		"Cache saved with key: 3b4f9a8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a4938271605f4e3d2c",
		"the key is 9fceb02d0ae598e95dc970b74767f19372d61af8 (the commit that added it)",
		"the public key is AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
		"the key is 123e4567-e89b-12d3-a456-426614174000, the session id",
		"the partition key is tenantId and the sort key is createdAt; the primary key is id",
		"the key is my-service-key-2024 and the token is MyServiceTokenName2024",
		"the token is your-token-here, the key is <your-key>, the secret is ${SECRET}",
		"token count: 1234567890123456 and key: value pairs",
		"The image key is iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
		"the GPG key is 3AA5C34371567BD2 and the key id is 4AEE18F83AFDEB23",
		"the key is AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl and the server's key is MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=",
		"The key is src/components/Header3Nav2Item.tsx and the token is uploads/2024/a8f3e9b2c1d4.png",
	])("keeps #%#", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("a value past its key's line", () => {
	const pw = t.password;
	const key = t.genericSecret;
	it.each([
		// A quoted value that runs over lines: YAML folds a quoted scalar's lines, a shell's string holds them.
		["a YAML double-quoted value over two lines", `db:\n  password: "${pw}\n    ${key}"\n  user: app`, `db:\n  password: "${m("password")}"\n  user: app`],
		["a YAML single-quoted value", `token: '${key}\n  ${key}'`, `token: '${m("secret")}'`],
		["a shell string with a line end in it", `DB_PASSWORD="${pw}\n${key}"\nDB_USER=app`, `DB_PASSWORD="${m("password")}"\nDB_USER=app`],
		// Lines a `\` joins: the shell reads them as one. The lines stay as they were.
		["export KEY=\\ and the value below", `export API_KEY=\\\n  ${key}\nnext`, `export API_KEY=\\\n  ${m("secret")}\nnext`],
		["a bearer token after a continuation, in a header", `curl -H "Authorization: Bearer \\\n  ${t.bearer}" https://api.example.com`, `curl -H "Authorization: Bearer \\\n  ${m("bearer-token")}" https://api.example.com`],
		["a command's password option on a line of its own", `mysql -h db -u root \\\n  -p${pw} \\\n  shop`, `mysql -h db -u root \\\n  -p${m("password")} \\\n  shop`],
		["docker login over lines, CRLF", `docker login \\\r\n  -u me \\\r\n  -p ${pw} \\\r\n  registry.io`, `docker login \\\r\n  -u me \\\r\n  -p ${m("password")} \\\r\n  registry.io`],
		["sshpass with its value below", `sshpass -p \\\n  ${pw} ssh root@h`, `sshpass -p \\\n  ${m("password")} ssh root@h`],
		["Python's continuation", `password = \\\n    "${pw}"`, `password = \\\n    "${m("password")}"`],
		// XML: the value on a line of its own between the tags, as a formatter writes it.
		["an XML element's value on its own line", `<server>\n  <password>\n    ${pw}\n  </password>\n</server>`, `<server>\n  <password>\n    ${m("password")}\n  </password>\n</server>`],
		["an apiKey element, CRLF", `<apiKey>\r\n  ${key}\r\n</apiKey>`, `<apiKey>\r\n  ${m("secret")}\r\n</apiKey>`],
		// A quoted value on the line below its key: JSON a formatter broke there, Prettier's long strings.
		["a JSON key ending its line", `{\n  "client_secret":\n    "${key}",\n  "client_id": "app"\n}`, `{\n  "client_secret":\n    "${m("secret")}",\n  "client_id": "app"\n}`],
		["a JSON key ending its line, the value not indented", `"client_secret":\n"${key}"`, `"client_secret":\n"${m("secret")}"`],
		["a code assignment Prettier broke", `const apiKey =\n  "${key}";`, `const apiKey =\n  "${m("secret")}";`],
		["an object property Prettier broke", `const config = {\n  clientSecret:\n    "${key}",\n  retries: 3,\n};`, `const config = {\n  clientSecret:\n    "${m("secret")}",\n  retries: 3,\n};`],
		// A value a line break pushed to the next line's start (a prompt typed over two lines): a random-looking first word.
		["a key's value at the next line's start", `set API_KEY=\n${key} in my env please`, `set API_KEY=\n${m("secret")} in my env please`],
		["a password on the line after its key, CRLF", `DB_PASSWORD=\r\n${key}\r\nDB_USER=app`, `DB_PASSWORD=\r\n${m("password")}\r\nDB_USER=app`],
		// Already so before: each key of pretty-printed JSON on a line of its own, a YAML block.
		["pretty-printed JSON", `{\n  "user": "app",\n  "password": "${pw}"\n}`, `{\n  "user": "app",\n  "password": "${m("password")}"\n}`],
		["a YAML block scalar", `token: |\n  ${key}\n  ${key}\nnext: 1`, `token: |\n  ${m("secret")}\nnext: 1`],
	])("%s", (_what, input, expected) => {
		expect(redactSecrets(input)).toBe(expected);
		expect(redactSecrets(expected)).toBe(expected);
		expect(builtIn.redactWithReport(input).count).toBe(1);
	});

	it.each([
		// A quote that ends its line opens no value; a closing quote something follows closes none.
		'const msg = "Your password: " +\n  "must be long";',
		'password: "abc\nuser: "',
		'password: "one\n  two three four five six seven eight nine"',
		"Your password: \"keep it\n  safe\"",
		// Words between tags on their own lines are prose (a JSX component's text); a reference stays.
		"<Token>\n  Copy this token\n</Token>",
		"<password>\n  ${DB_PASSWORD}\n</password>",
		// A fence below a label is no quoted value; a key that ends a line of prose has none below it.
		"  - Token:\n    ```bash\n    export X=1\n    ```",
		"Here is the token:\n\"see the vault\"",
		// Continued lines without a secret, and a `\\` that ends a line escaped (no continuation).
		'curl -s -X POST "$URL/auth/v1/admin/users" \\\n  -H "apikey: $SVC" -H "Authorization: Bearer $SVC"',
		"node scripts/token-benchmark.mjs run \\\n  --execute \\\n  --replicates 3",
		'echo "a\\\\\nb" && export API_KEY=\\\n  $API_KEY_FROM_VAULT',
		// A `.env` key left empty: the next line is the next key, a comment, a path or a call.
		"API_KEY=\nDB_HOST=localhost",
		"SECRET_TOKEN=\n# filled in by CI",
		"AUTH_TOKEN=\nsrc/components/AuthTokenField.tsx",
		"const token =\n  computeTheHashValue(request)",
	])("keeps #%#", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("lines PowerShell's backtick and cmd's caret join", () => {
	const pw = t.password;
	const key = t.genericSecret;
	it.each([
		["PowerShell: the value below its variable", `$env:API_KEY = \`\n  "${key}"`, `$env:API_KEY = \`\n  "${m("secret")}"`],
		["PowerShell: a header's token below", `Invoke-RestMethod -Uri $u \`\r\n  -Headers @{Authorization = "Bearer \`\r\n  ${t.bearer}"}`, `Invoke-RestMethod -Uri $u \`\r\n  -Headers @{Authorization = "Bearer \`\r\n  ${m("bearer-token")}"}`],
		["PowerShell: a command's password option", `docker login \`\n  -u me \`\n  -p ${pw} \`\n  registry.io`, `docker login \`\n  -u me \`\n  -p ${m("password")} \`\n  registry.io`],
		["cmd: set with the value below", `set API_KEY=^\n${key}`, `set API_KEY=^\n${m("secret")}`],
		["cmd: an option's value below, CRLF", `mysql -h db -u root ^\r\n  -p${pw} ^\r\n  shop`, `mysql -h db -u root ^\r\n  -p${m("password")} ^\r\n  shop`],
	])("%s", (_what, input, expected) => {
		expect(redactSecrets(input)).toBe(expected);
		expect(redactSecrets(expected)).toBe(expected);
		expect(builtIn.redactWithReport(input).count).toBe(1);
	});

	it.each([
		// References, and commands without a secret.
		"$env:API_KEY = `\n  $env:VAULT_API_KEY",
		'Write-Host "Done" `\n  -ForegroundColor Green',
		"set API_KEY=^\n%VAULT_API_KEY%",
		// A JavaScript template literal opened at a line's end is no continuation.
		"const tokenHelp = `\nUse this token for the staging API only.\n`;\nconst html = render({ token: `\n  ${value}` });",
		// A Markdown code span or fence ending a line is no continuation; an escaped caret (`^^`) is none.
		"Set the `API_KEY`\nvariable first, then `token`\n```\nrun it\n```",
		"echo a^^\npassword is asked for",
		// A compiler's pointer at the error.
		"    token = get(\n            ^\nSyntaxError: invalid syntax",
	])("keeps #%#", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("a value in triple quotes", () => {
	const pw = t.password;
	const key = t.genericSecret;
	it.each([
		["a TOML basic string", `api_key = """${key}"""`, `api_key = """${m("secret")}"""`],
		["a TOML literal string", `password = '''${pw}'''`, `password = '''${m("password")}'''`],
		["a TOML string over lines", `[db]\npassword = """\n${pw}\n"""\nuser = "app"`, `[db]\npassword = """${m("password")}"""\nuser = "app"`],
		["a Python string over lines", `API_TOKEN = '''\n    ${key}\n'''\nTIMEOUT = 3`, `API_TOKEN = '''${m("secret")}'''\nTIMEOUT = 3`],
		["a YAML-ish key, blanks around", `client_secret:  """${key}"""  # rotated`, `client_secret:  """${m("secret")}"""  # rotated`],
	])("%s", (_what, input, expected) => {
		expect(redactSecrets(input)).toBe(expected);
		expect(redactSecrets(expected)).toBe(expected);
		expect(builtIn.redactWithReport(input).count).toBe(1);
	});

	it.each([
		'password = """"""',
		"api_key = '''${API_KEY}'''",
		'password = """\n    The password the service is started with; set it in the\n    environment, never here.\n"""',
		'token = f"""{prefix}-{suffix}"""',
		'PASSWORD_MESSAGE = """Password: """',
	])("keeps #%#", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("XML elements and their attributes", () => {
	const pw = t.password;
	const key = t.genericSecret;
	it.each([
		["an element with attributes", `<password type="text">${pw}</password>`, `<password type="text">${m("password")}</password>`],
		["app.config's add, its value first", `<add value="${key}" key="ApiKey"/>`, `<add value="${m("secret")}" key="ApiKey"/>`],
		["app.config's add over lines, another attribute between", `<add key="ApiKey"\n     xdt:Transform="Replace"\n     value="${key}" />`, `<add key="ApiKey"\n     xdt:Transform="Replace"\n     value="${m("secret")}" />`],
		["a Java properties entry", `<entry key="token">${key}</entry>`, `<entry key="token">${m("secret")}</entry>`],
		["Hibernate's property", `<property name="hibernate.connection.password">${pw}</property>`, `<property name="hibernate.connection.password">${m("password")}</property>`],
		["a form's password field", `<input type="password" name="password" value="${pw}">`, `<input type="password" name="password" value="${m("password")}">`],
		["an attribute named after it on its own line", `<entry key="apiToken">\n  ${key}\n</entry>`, `<entry key="apiToken">\n  ${m("secret")}\n</entry>`],
	])("%s", (_what, input, expected) => {
		expect(redactSecrets(input)).toBe(expected);
		expect(redactSecrets(expected)).toBe(expected);
		expect(builtIn.redactWithReport(input).count).toBe(1);
	});

	it.each([
		'<password type="text"></password><token lang="en">${TOKEN}</token>',
		'<add key="ApiKeyHeader" value="X-Api-Key" /><add key="TokenEndpoint" value="https://login.example.com/token" />',
		'<input type="password" name="password" placeholder="Password" autocomplete="current-password">',
		'<label for="token">Token</label><div id="token">Loading</div><entry key="token">$TOKEN</entry>',
		'<entry key="cache.key">users</entry><property name="passwordEncoder" ref="bcrypt"/>',
		'<Field name="apiKey" value={apiKey} onChange={set} />',
	])("keeps #%#", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("secrets inside escaped text", () => {
	const pw = t.password;
	const key = t.genericSecret;
	it.each([
		// JSON inside JSON: a tool's output that was itself a JSON string, its `\n` and `\"` two characters.
		["a .env file in a JSON string", `{"env":"API_KEY=abc\\nSECRET_TOKEN=${key}\\nDEBUG=1"}`, `{"env":"API_KEY=abc\\nSECRET_TOKEN=${m("secret")}\\nDEBUG=1"}`],
		["a .env file in a JSON string, every value", `"DB_PASSWORD=${pw}\\nAPI_KEY=${key}\\nDEBUG=1"`, `"DB_PASSWORD=${m("password")}\\nAPI_KEY=${m("secret")}\\nDEBUG=1"`],
		["YAML in a JSON string", `{"content":"db:\\n  password: correct-horse-battery-staple-42\\n  user: app\\n"}`, `{"content":"db:\\n  password: ${m("password")}\\n  user: app\\n"}`],
		["a .env file escaped twice", `"env":"API_KEY=${key}\\\\nSECRET_TOKEN=${key}"`, `"env":"API_KEY=${m("secret")}\\\\nSECRET_TOKEN=${m("secret")}"`],
		["JSON escaped twice", `"{\\\\\\"password\\\\\\": \\\\\\"${pw}\\\\\\"}"`, `"{\\\\\\"password\\\\\\": \\\\\\"${m("password")}\\\\\\"}"`],
		["a header in JSON escaped twice", `{\\\\\\"Authorization\\\\\\": \\\\\\"Token ${t.bearer}\\\\\\"}`, `{\\\\\\"Authorization\\\\\\": \\\\\\"Token ${m("bearer-token")}\\\\\\"}`],
		["XML in a JSON string, < and > as Go escapes them", `"\\u003cpassword\\u003e${pw}\\u003c/password\\u003e"`, `"\\u003cpassword\\u003e${m("password")}\\u003c/password\\u003e"`],
		["a private key's line ends in a JSON string (as before)", `"-----BEGIN PRIVATE KEY-----\\n${t.pemBody.join("\\n")}\\n-----END PRIVATE KEY-----\\n"`, `"${m("private-key")}\\n"`],
		// XML and HTML with entities.
		["an element in entities", `&lt;password&gt;${pw}&lt;/password&gt;`, `&lt;password&gt;${m("password")}&lt;/password&gt;`],
		["app.config's add in entities", `&lt;add key=&quot;ApiKey&quot; value=&quot;${key}&quot; /&gt;`, `&lt;add key=&quot;ApiKey&quot; value=&quot;${m("secret")}&quot; /&gt;`],
		["numeric entities", `&#60;token&#62;${key}&#60;/token&#62;`, `&#60;token&#62;${m("secret")}&#60;/token&#62;`],
	])("%s", (_what, input, expected) => {
		expect(redactSecrets(input)).toBe(expected);
		expect(redactSecrets(expected)).toBe(expected);
	});

	it.each([
		// Placeholders and references, escaped.
		'{"content":"PASSWORD=changeme\\nAPI_KEY=${API_KEY}\\nTOKEN=<your-token>\\nSECRET=${{ secrets.SECRET }}"}',
		'"{\\\\\\"password\\\\\\": \\\\\\"\\\\\\", \\\\\\"api_key\\\\\\": \\\\\\"$API_KEY\\\\\\"}"',
		"&lt;password&gt;&lt;/password&gt; &lt;your-key&gt; &lt;token&gt;${TOKEN}&lt;/token&gt;",
		// Code whose strings hold escapes.
		'print("Enter your password:\\n")\nlines = "\\n".join(parts)\nprompt = "token: \\"" + name + "\\""',
		'"     1→import os\\n     2→\\n     3→API_KEY = os.environ[\\"API_KEY\\"]\\n     4→password = getpass()\\n"',
		"https://example.com/search?q=reset&amp;token_type=bearer&amp;lang=en",
	])("keeps #%#", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("redactSecrets: an OpenAI key with a long prefix glued to a name", () => {
	it("is a key after `_` or `-` (a tool named `mcp__sk-proj-…`, `key_sk-svcacct-…`); a bare `sk-` so glued is a slug's piece", () => {
		const body = "Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4";
		expect(redactSecrets(`mcp__sk-proj-${body}: cat notes`)).toBe(`mcp__${m("openai-api-key")}: cat notes`);
		expect(redactSecrets(`key_sk-svcacct-${body}`)).toBe(`key_${m("openai-api-key")}`);
		expect(redactSecrets(`run-sk-admin-${body}`)).toBe(`run-${m("openai-api-key")}`);
		expect(redactSecrets(`task-sk-${body}`)).toBe(`task-sk-${body}`);
	});
});
