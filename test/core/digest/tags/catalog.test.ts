import { describe, expect, it } from "vitest";
import { packageTopic } from "../../../../src/core/digest/tags/catalog";

describe("packageTopic", () => {
	it.each<[string, string | undefined]>([
		["@supabase/ssr", "supabase"],
		["tailwindcss", "tailwind"],
		["react@18.3.1", "react"],
		["fastapi==0.110", "fastapi"],
		["livekit-client", "livekit"],
		["@tanstack/react-query", "tanstack"],
		["mongoose@8.2", "mongoose"],
		["sequelize", "sequelize"],
		["left-pad", undefined],
		["@acme/internal-utils", undefined],
	])("%s → %s", (spec, topic) => {
		expect(packageTopic(spec)).toBe(topic);
	});
});
