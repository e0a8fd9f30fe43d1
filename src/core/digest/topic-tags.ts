/**
 * Deterministic topic tags for session notes; see docs/topic-tags.md. The implementation lives in
 * ./tags/: file-signals (files, commands, tools), keywords (prompt keywords, TF-IDF/BM25 against the
 * corpus), keyword-rules (user rules), stopwords, catalog (known topics and their categories),
 * tag-name (valid Obsidian tags).
 */
export { tagBasis, topicTags, topicSignals, DEFAULT_MAX, DEFAULT_MAX_KEYWORDS, type TagBasis, type TagInput, type TagOptions, type TopicSignal } from "./tags/topic-tags";
export { buildKeywordStats, keywordsOf, termOccurrences, type KeywordStats, type TermOccurrence } from "./tags/keywords";
export type { KeywordRule } from "./tags/keyword-rules";
export { isMeaningfulProjectSlug, projectSlug, projectTagSlug, toTag } from "./tags/tag-name";
export { commandSignals, fileSignals, gitRefs, toolSignals } from "./tags/file-signals";
