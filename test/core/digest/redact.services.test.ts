import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../src/core/digest/redact";
import { ALNUM, DIGITS, HEX, LOWER, tokenGenerator, UPPER } from "./seeded-tokens";

// Round 46a: tokens of more services, bare in prose, commands and JSON (each passed every rule before).
// Built at run time (see `seeded-tokens`), so no secret-looking literal sits in the repository.
const redact = (text: string) => createRedactor().redact(text);
const gen = tokenGenerator(0x46a);
const m = (kind: string): string => `[redacted:${kind}]`;
const jwkD = gen(ALNUM + "-_", 43);
const puttyLine = gen(ALNUM, 44);

/** [kind, the secret, how it is met]: the secret must go, the rest stay. */
const CASES: [string, string, (secret: string) => string][] = [
	["age-secret-key", "AGE" + "-SECRET-KEY-1" + gen(UPPER + DIGITS, 58), (s) => `# created: 2026\n${s}\n`],
	["azure-client-secret", gen(ALNUM, 3) + "8Q~" + gen(ALNUM + "_-.", 34), (s) => `the app registration secret is ${s} and expires in 2027`],
	["azure-sas-signature", encodeURIComponent(gen(ALNUM + "+/", 43) + "="), (s) => `curl "https://acme.blob.core.windows.net/c/f.zip?sv=2022-11-02&sp=r&se=2027-01-01&sig=${s}"`],
	["webhook-url", gen(ALNUM + "_-", 68), (s) => `POST https://discord.com/api/webhooks/1234567890123456789/${s} 204`],
	["webhook-url", `${gen(HEX, 8)}-1234-4abc-8def-${gen(HEX, 12)}@${gen(HEX, 8)}/IncomingWebhook/${gen(HEX, 32)}/${gen(HEX, 8)}`, (s) => `https://acme.webhook.office.com/webhookb2/${s}`],
	["webhook-url", `1234567/${gen(LOWER + DIGITS, 7)}`, (s) => `curl -X POST https://hooks.zapier.com/hooks/catch/${s}/ -d @a.json`],
	["mailchimp-api-key", gen(HEX, 32) + "-us6", (s) => `mailchimp.setConfig({ apiKey: ${s} })`.replace("apiKey: ", "apiKey: ")],
	["sourcegraph-token", "sgp" + "_" + gen(HEX, 40), (s) => `src login --token ${s} https://sourcegraph.com`.replace("--token ", "with ")],
	["rubygems-api-key", "rubygems" + "_" + gen(HEX, 48), (s) => `gem push fails with ${s}`],
	["dockerhub-token", "dckr" + "_pat_" + gen(ALNUM + "_-", 27), (s) => `the pat is ${s}`],
	["tavily-api-key", "tvly" + "-" + gen(ALNUM, 32), (s) => `TavilyClient(${s})`],
	["square-token", "EAAA" + gen(ALNUM + "_-", 60), (s) => `square token ${s} works`],
	["facebook-access-token", "EAACEdEose0cBA" + gen(ALNUM, 120), (s) => `graph.facebook.com/me?access=${s}`],
	["planetscale-token", "pscale" + "_pw_" + gen(ALNUM, 43), (s) => `mysql://u:@aws.connect.psdb.cloud/db with ${s}`],
	["fly-token", "fm2" + "_" + gen(ALNUM + "+/", 120) + "==", (s) => `FlyV1 ${s}`],
	["netlify-token", "nfp" + "_" + gen(ALNUM, 36), (s) => `netlify deploy --auth ${s}`.replace("--auth ", "using ")],
	["tailscale-key", "tskey" + "-auth-" + gen(ALNUM, 12) + "-" + gen(ALNUM, 33), (s) => `tailscale up --authkey=${s}`.replace("--authkey=", "with ")],
	["terraform-cloud-token", gen(ALNUM, 14) + ".atlasv1." + gen(ALNUM, 67), (s) => `credentials "app.terraform.io" { ${s} }`],
	["infisical-token", `st.${gen(HEX, 8)}-${gen(HEX, 4)}.${gen(HEX, 32)}.${gen(HEX, 32)}`, (s) => `infisical run with ${s}`],
	["resend-api-key", "re" + "_" + gen(ALNUM, 8) + "_" + gen(ALNUM, 24), (s) => `new Resend("${s}")`],
	["dropbox-token", "sl" + "." + gen(ALNUM + "_-", 140), (s) => `dbx = dropbox.Dropbox(${s})`],
	["contentful-token", "CFPAT" + "-" + gen(ALNUM + "_-", 43), (s) => `contentful login ${s}`],
	["typeform-token", "tfp" + "_" + gen(ALNUM, 44) + "_" + gen(ALNUM, 14), (s) => `typeform ${s}`],
	["prefect-api-key", "pnu" + "_" + gen(ALNUM, 36), (s) => `prefect cloud login -k ${s}`.replace("-k ", "")],
	["buildkite-token", "bkua" + "_" + gen(HEX, 40), (s) => `bk configure ${s}`],
	["circleci-token", "CCIPAT" + "_" + gen(ALNUM, 22) + "_" + gen(HEX, 40), (s) => `circleci setup ${s}`],
	["airtable-token", "pat" + gen(ALNUM, 14) + "." + gen(HEX, 64), (s) => `new Airtable(${s})`],
	["mapbox-secret-token", "sk" + ".eyJ1Ijoi" + gen(ALNUM, 40) + "." + gen(ALNUM, 22), (s) => `MAPBOX_DOWNLOADS ${s}`],
	["bitbucket-app-password", "ATBB" + gen(ALNUM, 32), (s) => `git clone https://me@bitbucket.org/x/y.git with ${s}`],
	["onepassword-service-token", "ops" + "_eyJ" + gen(ALNUM, 200), (s) => `op run with ${s}`],
	["firebase-server-key", "AAAA" + gen(ALNUM, 7) + ":APA91b" + gen(ALNUM + "_-", 134), (s) => `Authorization key=${s}`.replace("key=", "key ")],
	["google-refresh-token", "1" + "//0" + gen(ALNUM + "_-", 100), (s) => `refresh with ${s}`],
	["kubernetes-bootstrap-token", "k3x9qa.b7c2m4p8z1w5t6y0", (s) => `printf %s "user: token: ${s}" > kubeconfig`],
	["kubernetes-bootstrap-token", "lduguk.zdp00uwmqw1u179j", (s) => `kubeadm join 10.0.0.1:6443 with ${s}`],
	["private-key", jwkD, (s) => `{"kty":"EC","crv":"P-256","x":"abc","d":"${s}"}`],
	["private-key", puttyLine, (s) => `PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 1\nAAAA\nPrivate-Lines: 1\n${s}\nPrivate-MAC: 0a1b`],
	["password", "$apr1$" + gen(ALNUM, 8) + "$" + gen(ALNUM + "./", 22), (s) => `admin:${s}`],
	["password", "$2b$12$" + gen(ALNUM + "./", 53), (s) => `UPDATE users SET pw='${s}'`],
];

describe("tokens of more services (round 46a)", () => {
	it.each(CASES)("%s", (kind, secret, context) => {
		const out = redact(context(secret));
		expect(out).not.toContain(secret);
		expect(out).toContain(m(kind));
	});

	it.each([
		"the path /usr/share/patterns.d and pathological inputs",
		"st.louis.missouri and first.last@example.com",
		"see sl.example.com and rl.sl.com",
		"a sig=abc in a URL and ?sig=short",
		"the q~ operator and 8Q~ alone",
		"EAA is an acronym; EAAA too",
		"version 1//0 and http://0.0.0.0",
		'{"d": "2026-12-01", "p": "page", "q": "search terms here"}',
		"docs.example.io and assets.cdn1234567890ab and readme.abcdefghijklmnop",
		"bcrypt hashes start with $2b$ and a cost",
		"the mailchimp list us6 and 0123-us6",
		"Private-Lines: 1",
	])("keeps %s", (text) => {
		expect(redact(text)).toBe(text);
	});

	it("a random body with no digit, as 0.2 to 0.7 % of real ones of 28 to 40 characters come, is redacted too", () => {
		const letters = (n: number) => `${gen(UPPER, 1)}${gen(LOWER, 1)}${gen(UPPER + LOWER, n - 2)}`;
		for (const [kind, secret] of [
			["resend-api-key", "re" + "_" + letters(8) + "_" + letters(24)],
			["netlify-token", "nfp" + "_" + letters(36)],
			["bitbucket-app-password", "ATBB" + letters(32)],
		] as const) {
			expect(redact(`the key is ${secret} here`), kind).toBe(`the key is ${m(kind)} here`);
		}
		// Short and in one case, a word is still no token.
		expect(redact("call re_abcdefgh_abcdefghijklmnopqrstuvwx here")).toBe("call re_abcdefgh_abcdefghijklmnopqrstuvwx here");
	});

	it("keeps base64 that holds EAA… between its own characters (an image, a key file), which no token is", () => {
		const blob = `${gen(ALNUM, 40)}/${"EAAB".repeat(30)}${gen(ALNUM, 40)}+${"EAAA".repeat(20)}${gen(ALNUM, 30)}`;
		expect(redact(`data:image/png;base64,${blob}`)).toBe(`data:image/png;base64,${blob}`);
	});

	it("finds a bootstrap token from its dot, the six characters before it included, where a text names a token", () => {
		expect(redact("kubeadm join --token ab3d9f.0123456789abcdef --discovery-token-ca-cert-hash sha256:x")).toBe(`kubeadm join --token ${m("kubernetes-bootstrap-token")} --discovery-token-ca-cert-hash sha256:x`);
		// A file or host name of that shape in a text that names no token is no secret to look for (see the rule).
		expect(redact("renamed ab3d9f.0123456789abcdef")).toBe("renamed ab3d9f.0123456789abcdef");
		expect(redact("token x.ab3d9f.0123456789abcdef and ab3d9f.0123456789abcdeff")).toBe("token x.ab3d9f.0123456789abcdef and ab3d9f.0123456789abcdeff");
	});
});
