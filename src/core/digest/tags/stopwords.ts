/**
 * Words that never become topic tags. The lists are short on purpose: words that are merely common
 * in one person's sessions are caught by document frequency (see keywords.ts), these lists catch
 * grammar and the vocabulary of asking an assistant for something ("please add", "추가해 줘").
 */

function set(words: string): ReadonlySet<string> {
	return new Set(words.split(/\s+/).filter((w) => w !== ""));
}

/** English function words plus code-chat verbs, fillers and chat shorthand (idk, btw). Compared after lower-casing, before and after plural stemming. */
export const EN_STOP = set(`
ready weird strange connect verify split command commands callback
a about above across actually add added adding after again against ago all almost along already also although always am among an and another any anyone anything anyway anywhere are aren't around as ask asked at available away
back bad based be because been before being below best better between both break broke broken bug bugs but by
call called can can't cannot case change changed changes check claude clean code come could couldn't create created current currently
data default did didn't different do does doesn't doing don't done down due during
each easy edit else empty end enough error errors etc even ever every everything example exist exists expected
fail failed fails false feature few file files find fine first fix fixed fixes fixing follow following for found from full function
get gets getting give go goes going gone good got great
had hadn't has hasn't have haven't having he help her here hers him his hmm how however
i i'd i'll i'm i've idea if implement implementation important in inside instead into is isn't issue issues it it's its itself
just keep kind know last later least left less let let's like line lines little look looks lot
made main make makes making many may maybe me mean might mine more most much must my myself
need needed needs never new next nice no none nor not nothing now number
of off ok okay old on once one only onto or other others our ours out output over own
part pass passing perhaps place please point possible pretty previous probably problem proper properly put
quick quite rather re read really refactor remove removed result right run running runs
said same say see seem seems set should shouldn't show simple since so some someone something sometimes somewhere soon sorry start still stuff such suggest sure
take tell than thank thanks that that's the their theirs them then there there's these they thing things think this those though through thus to too try trying two
under unless until up update updated use used uses using
value very via
want wanted wants was wasn't way we we'll we're well went were weren't what what's when where whether which while who whole why will with within without won't work worked working works would wouldn't write wrong
yeah yes yet you you'd you'll you're you've your yours yourself
hey hi hello wait latest simplest easiest biggest worst understand remember continue allow assume assuming attach mention happen ensure whatever whenever wherever therefore otherwise meanwhile
regarding relevant specific general certain various several multiple single top bottom missing pending failing invoke handle support return big small large huge tiny fair great awesome cool
today tomorrow yesterday week month year time minute hour second able unable bring brought came besides instead question answer reason info information sort review reviewing
move moved moving pick picked mind open opened type typed bare initial examine examined summarize summarise organize organise install installed search searched tool tools decade
look looking seen saw give given keep kept turn turned mode step steps stage option options version thing item items kind type types way ways end ending start starting
per either neither upon whereas whilst amongst amid beside beyond despite except unlike versus vs toward towards whom whose whichever whoever hence thereby
wherein whereby shall ought albeit lest unto outside throughout till behind beneath nobody somebody everybody anybody everyone nowhere everywhere
herself himself themselves ourselves yourselves furthermore moreover nevertheless nonetheless fatal warn warning warnings
idk imo imho btw fyi tbh lol pls plz thx afaik iirc asap
`);

/**
 * English words too general to be a topic on their own, though fine inside a phrase (`api-key`,
 * `dark-mode`, `shadow-branch`, `token-usage`): the kinds of things code and documents are made
 * of (attribute, field, folder, list, group, index…) and their usual short forms in code (req,
 * msg, attr…), the vocabulary of a conversation with an assistant and of git (session,
 * prompt, message, commit, branch…), and adjectives that only qualify (separate, manual, auto,
 * local…), severities among them (critical, minor). A word that is not here but is as general should be:
 * it is never the answer to "what was this session about?".
 */
export const EN_GENERIC = set(`
action actions
attribute field property parameter param argument arg variable var method element column row key name label text string list array object entry
folder directory dir path index flag event handler helper util wrapper instance child parent block chunk piece section header footer title body
content format style color colour size width height length count amount level depth order position offset limit page screen window console button link
req res msg attr prop ctx cfg obj str val
view display panel tab icon image picture layout template default value values
session prompt conversation chat message reply response request input source target state status config configuration setting settings detail
note document comment description summary overview context plan approach solution strategy scenario sample demo draft copy report group team user
people person member library system process environment setup machine program application app tool project repo repository workspace
commit branch merge push pull diff checkout stash
custom auto automatic manual separate additional extra entire complete basic advanced complex local remote global internal external public private
critical urgent severe major minor trivial
active inactive enabled disabled real actual true null standalone optional required proper correct incorrect invalid valid unknown whole original
`);

/**
 * Colour names, and the words that shade one (`dark blue`): a colour is a value, never a topic (see
 * `isColour` in keywords.ts). Black and white are not here: `black` is a Python formatter, and
 * both make lists' names (whitelist, blacklist).
 */
export const EN_COLOURS = set("red orange yellow green blue purple violet pink brown gray grey cyan magenta teal navy indigo maroon beige turquoise crimson");
export const EN_SHADES = set("dark light pale bright deep");

/** English words ending in -ly or -ed that are not adverbs or past forms (those are dropped). */
export const EN_LY_ED_OK = set("apply reply supply family assembly anomaly monopoly multiply embed hundred");

/** Two-letter Latin terms worth keeping; every other Latin term needs three characters. */
export const EN_SHORT_OK = set("ai ml ui ux db ci qa vm s3 ec2 k8s");

/** Latin words that end in `s` but are not plurals. */
export const EN_NO_STEM = set(`
aws axis alias analysis atlas basis bonus bus canvas chaos class cors corpus css dns does focus gas gaps ios jenkins kubernetes
lens macos nixos chromeos freertos minus news nexus next.js nodejs plus postgres process progress redis sass scss series species status success
thesis this was has is its us virus yes express address access less unless across various previous always
crisis emphasis synopsis tennis genesis hypothesis diagnosis parenthesis ellipsis synthesis
emacs pandas rails
`);

/**
 * Korean particles (조사), longest first. One is stripped from the end of an eojeol, then a plural 들.
 * (요 is not here: a word ending in it is a polite verb form, 느려요, 돼요.)
 */
export const KO_PARTICLES = [
	"에서부터", "으로부터", "에서는", "에서도", "에서의", "으로는", "으로도", "으로의", "에게서", "한테서", "까지는", "까지도", "부터는", "이라도", "이라고", "이랑은",
	"에서", "에게", "한테", "으로", "까지", "부터", "처럼", "보다", "이나", "이랑", "라고", "에는", "에도", "에의", "와의", "과의", "로의", "로는", "로도", "만의", "이며", "이고", "이다", "이요", "께서",
	"은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도", "만", "께", "나", "랑",
];

/**
 * Endings of 하다/되다 verbs built on a noun (리팩토링해줘 → 리팩토링, 추가해 → 추가), longest first.
 * The noun before them is kept (and then checked against KO_STOP).
 */
export const KO_HADA_ENDINGS = [
	"해주세요", "해주시겠어요", "해줄래요", "해줘요", "해주고", "해주면", "했습니다", "했는데", "했으면", "했어요", "하려고", "하려면", "하도록", "합니다", "해줄래", "해봐요",
	"해줘", "해주", "해봐", "해서", "해야", "해요", "해도", "해라", "했고", "했다", "했어", "했음", "하기", "하고", "하는", "하니", "하다", "하면", "하며", "하세요", "하시오", "하여", "하자", "하지", "하게", "할게", "할까", "할래",
	"되도록", "되어서", "되는데", "됐어요", "되고", "되는", "되면", "되어", "되지", "됐어", "됐다", "돼서", "돼요", "시켜줘", "시켜",
	"해", "한", "할", "함", "된", "될", "됨", "돼",
];

/** Endings that mark a word as a verb or adjective form (받도록, 있습니다, 보여주세요): the whole word is dropped. */
export const KO_VERB_ENDINGS = [
	"습니다", "주세요", "세요", "니다", "도록", "어줘", "아줘", "워줘", "여줘", "줘요", "줘", "줄래", "어요", "아요", "워요", "는데", "은데", "려고", "려면", "으면", "지만", "거나", "다고", "는지", "은지", "을지",
	"겠어", "었어", "았어", "였어", "겠다", "었다", "았다", "였다", "었고", "았고", "어서", "아서", "니까", "잖아", "네요", "군요", "져", "요",
];

/** Nouns that end in a syllable that looks like a particle or an ending; kept whole. */
export const KO_NOUNS = set(`
효과 통과 초과 속도 정확도 밀도 빈도 강도 온도 난이도 의존도 정도 회의 정의 문의 합의 강의 경로 도로 필요 중요 하나
게이트웨이 어레이 디스플레이 릴레이 딜레이 오버레이 플레이 레이 웨이 권한 제한 기한 무한 역할 이해 피해 방해 손해 평가 대가 미만 무제한 윈도 개요 수요 주요
`);

/** Korean words that are grammar, fillers or request vocabulary, compared after particle stripping. */
export const KO_STOP = set(`
그리고 그래서 그러면 그런데 하지만 그냥 그래 그럼 근데 혹시 아마 정말 진짜 너무 매우 아주 조금 많이 다시 먼저 이제 지금 바로 계속 같이 또는 혹은 그러니까 이렇게 그렇게 저렇게 어떻게 왜냐하면 없이
이거 그거 저거 이것 그것 저것 여기 거기 저기 이번 다음 이전 전체 현재 우리 저희 제가 내가 너가 당신 무엇 뭔가 어디 언제 누가 모든 모두 각각 하나씩 같은 다른 새로운 좋은 나쁜 부분 내용 방법 작업 문제 경우 때문 관련 이상 이하 정도 필요 중요
결과 에러 오류 버그 추가 수정 삭제 변경 확인 구현 작성 생성 사용 설명 진행 처리 적용 해결 체크 개선 검토 정리 만들 만들어 알려 보여 고쳐 바꿔 넣어 빼 줘 해 주 해줘 주세요 합니다 부탁 부탁해 감사 감사합니다 고마워 안녕 안녕하세요
코드 파일 기능 클로드 이상해 있는 없는 있어 없어 있고 없고 있음 없음 되는 안되 안돼 됩니다 같아 같은데 같습니다 보면 하면 해도
`);

/** Japanese words (after segmentation) that are grammar or request vocabulary. Hiragana-only words are dropped separately. */
export const JA_STOP = set(`
修正 追加 削除 変更 確認 実装 作成 使用 対応 お願い 問題 方法 部分 内容 機能 場合 今回 以下 以上 全部 全体 必要 可能 感じ 下さい 現在 最初 最後 今 次 前 後
説明 処理 適用 解決 改善 検討 整理 作業 利用 関連 ファイル コード 実行 クロード 具体 簡単 一部 一緒 状態 結果 理由 意味 自分 皆 何 誰
`);

/** Chinese words that are grammar or request vocabulary, written in simplified characters (see `isZhStop`). */
export const ZH_STOP = set(`
还是 时间 做法 这是 那是 我的 你的 开始 讨论 分析 并且 请先 后再 先 再 一次 东西 是否 能否 目前 还差 详细 请问 想要 结合 提供 输出 一段 另外 以下 以上 这样 那样 怎样 随机 论文 刚刚 只是
的 了 是 在 和 把 给 吗 呢 吧 啊 请 帮 帮我 我 你 您 他 她 它 我们 你们 他们 一个 这个 那个 这些 那些 一下 一些 就 也 都 还 要 会 能 可以 需要 怎么 什么 为什么 如何 现在 然后 如果 因为 所以 但是 或者 而且 已经 没有 不 有 让 被 对 从 到 为 与 及 等 并 又 很 更 最
结束 看到 找到 知道 理解 记得 继续
加上 添加 增加 修改 修复 删除 实现 使用 支持 问题 代码 文件 功能 方法 进行 处理 创建 更新 检查 看看 写 做 用 加 改 看 去 来 说 想 里 上 下 中 时候 之后 之前 以后 以前 部分 内容 一起 谢谢 感谢 麻烦 告诉 解释 出现 发现 觉得 应该 可能 必须 直接 相关 所有 其他 整个
`);

/**
 * Chinese forms of the words of EN_GENERIC (窗口 window, 页面 page, 配置 config, 用户 user, 严重
 * critical…), simplified, with the words Taiwan uses for some (资料夹 folder, 专案 project, 设定
 * settings): as general in Chinese as in English, never a topic alone (see `isZhGeneric`).
 */
export const ZH_GENERIC = set(`
属性 字段 参数 变量 元素 名称 名字 标签 文本 字符串 列表 数组 对象 条目 文件夹 资料夹 目录 路径 索引 事件 实例 标题 档案
格式 样式 颜色 大小 宽度 高度 长度 数量 顺序 位置 页面 屏幕 窗口 视窗 按钮 链接 视图 图标 图片 布局 模板 默认 预设
会话 消息 回复 输入 来源 目标 状态 配置 设置 设定 详情 备注 注释 描述 摘要 总结 概述 上下文 计划 方案 策略 场景 示例 草稿 报告 用户 使用者
系统 程序 应用 工具 项目 专案 仓库 环境 提交 分支 自定义 自动 手动 本地 远程 全局 内部 外部 严重 关键
`);

/** Traditional forms of the characters in ZH_STOP and ZH_GENERIC (這個 is 这个): Taiwan and Hong Kong write them so. */
const TRADITIONAL = "這这 個个 們们 麼么 開开 時时 為为 還还 會会 對对 從从 與与 來来 說说 裡里 後后 沒没 讓让 給给 幫帮 請请 嗎吗 現现 應应 該该 須须 關关 題题 碼码 實实 處处 創创 檢检 謝谢 煩烦 訴诉 釋释 發发 覺觉 當当 刪删 復复 並并 討讨 論论 東东 詳详 問问 結结 輸输 樣样 隨随 剛刚 於于 間间 屬属 參参 變变 稱称 籤签 條条 夾夹 錄录 徑径 顏颜 寬宽 長长 數数 順顺 頁页 鈕钮 鏈链 視视 圖图 標标 認认 話话 態态 備备 總总 計计 劃划 場场 報报 戶户 統统 項项 庫库 環环 義义 動动 遠远 內内 嚴严 鍵键 記记 繼继 續续 資资 檔档 專专 設设 預预 覽览 訊讯 儲储 倉仓 齊齐 範范";
const SIMPLIFIED = new Map(TRADITIONAL.split(" ").map((pair): [string, string] => [pair.charAt(0), pair.charAt(1)]));

/** A Chinese stop word, in simplified or traditional characters. */
export function isZhStop(word: string): boolean {
	return inZh(ZH_STOP, word);
}

/** A Chinese word too general to be a topic alone, in simplified or traditional characters. */
export function isZhGeneric(word: string): boolean {
	return inZh(ZH_GENERIC, word);
}

function inZh(words: ReadonlySet<string>, word: string): boolean {
	if (words.has(word)) return true;
	let simplified = "";
	for (const c of word) simplified += SIMPLIFIED.get(c) ?? c;
	return simplified !== word && words.has(simplified);
}

/** Han characters that attach to the word before them when segmentation split a compound (服务|器 → 服务器, 数据|库 → 数据库). */
export const HAN_SUFFIXES = set("器 码 库 表 类 型 性 化 端 层 件 栏 框 符 量 值 键 池 图 流 源 段 率 机 集 页 面");
