import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../src/core/digest/redact";
import { redactModelInPlace } from "../../../src/core/ingest/redact-model";
import { foldAiderLines } from "../../../src/core/transcript/aider-fold";
import { serializeSession } from "../../../src/core/transcript/session-model";
import { foldInPieces } from "../../fixtures/fold-pieces";

// Built at run time: no secret-looking literal in the repository.
const TOKEN = `ghp${"_"}${"Zq8Xw2Vr5Ty7Ub3Nm9Lk1Jh4Gf6Ds0AbCdEf"}`;
const redact = (text: string) => createRedactor().redact(text);

describe("redactModelInPlace", () => {
	it("leaves no secret in what an Aider read keeps for the next one (the last line of output)", () => {
		const history = ["", "# aider chat started at 2026-11-20 10:00:00", "", "> Aider v0.86.1  ", "", "#### Fix the deploy script  ", "", "Done, see below.", "", "> Running ./deploy.sh  ", `> export GITHUB_TOKEN=${TOKEN}  `, ""].join("\n");
		const model = foldInPieces(foldAiderLines, "aider", history);
		expect(JSON.stringify(serializeSession(model))).toContain(TOKEN);
		redactModelInPlace(model, redact);
		expect(JSON.stringify(serializeSession(model))).not.toContain(TOKEN.slice(4, 14));
	});
});
