//! Every string the UI shows, in English and 简体中文. [`K`] is one key per string; the
//! `strings!` table below gives both translations for each key, so a key without a translation
//! does not compile, and `tests/web/` checks that none is empty and that both sides use the
//! same `{0}`, `{1}` … placeholders. Terms (resourceVersion, etcd, continue token, watch,
//! revision, list, informer, apiserver) stay in English in the Chinese text, as Chinese
//! Kubernetes documentation writes them.

use std::fmt::Display;

use yew::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The code used in `?lang=`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The BCP 47 tag for the `lang` attribute.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// The language's own name, for the switcher.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "简体中文",
        }
    }

    /// `en`, `zh`, and also browser tags such as `zh-CN`, `zh-Hans`, `en-US`.
    pub fn parse(s: &str) -> Option<Lang> {
        // The console embed reads its `lang` attribute the same way.
        crate::embed::console::words::parse_lang(s).map(|l| match l {
            crate::script::why::Lang::En => Lang::En,
            crate::script::why::Lang::Zh => Lang::Zh,
        })
    }

    /// The first language in the browser's preference list that we have; English otherwise.
    pub fn from_browser() -> Lang {
        let Some(nav) = web_sys::window().map(|w| w.navigator()) else { return Lang::En };
        let langs = nav.languages();
        for i in 0..langs.length() {
            if let Some(l) = langs.get(i).as_string().and_then(|s| Lang::parse(&s)) {
                return l;
            }
        }
        nav.language().and_then(|s| Lang::parse(&s)).unwrap_or(Lang::En)
    }
}

macro_rules! strings {
    ($($k:ident => $en:expr, $zh:expr;)*) => {
        /// One key per UI string.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum K { $($k),* }
        impl K {
            /// Every key, for the completeness test.
            pub const ALL: &'static [K] = &[$(K::$k),*];
            pub fn en(self) -> &'static str { match self { $(K::$k => $en),* } }
            pub fn zh(self) -> &'static str { match self { $(K::$k => $zh),* } }
        }
    };
}

strings! {
    // ---- app shell
    Tagline => "how Kubernetes resourceVersion really works", "Kubernetes resourceVersion 的真实工作方式";
    ToolbarLabel => "Sandbox", "沙盒";
    Undo => "Undo", "撤销";
    UndoTitle => "Undo the last line (Ctrl+Z outside text fields)", "撤销最后一行（在输入框之外按 Ctrl+Z）";
    Redo => "Redo", "重做";
    RedoTitle => "Redo (Ctrl+Y outside text fields)", "重做（在输入框之外按 Ctrl+Y）";
    Reset => "Reset", "重置";
    ResetTitle => "Start an empty sandbox (Redo brings the lines back one by one)", "从空沙盒重新开始（“重做”可以逐行恢复）";
    ResetEmbed => "Start over", "重新开始";
    Export => "Export", "导出";
    ExportTitle => "Download the log as a script", "把命令记录下载为脚本文件";
    Import => "Import", "导入";
    Importing => "Importing…", "正在导入…";
    ImportTitle => "Load a script file: it replaces the sandbox", "载入脚本文件：它会替换当前沙盒";
    Share => "Share", "分享";
    ShareTitle => "A link that holds the whole sandbox", "生成一个包含整个沙盒的链接";
    LangLabel => "Language", "语言";
    ThemeLabel => "Theme", "主题";
    ThemeAuto => "auto", "跟随系统";
    ThemeLight => "light", "浅色";
    ThemeDark => "dark", "深色";
    Dismiss => "Dismiss", "关闭提示";
    RestoreBackup => "Restore my previous sandbox", "恢复我之前的沙盒";
    Footer => "rvlab {0} · every action is a script line: Export gives you the script", "rvlab {0} · 每个操作都是一行脚本：点“导出”即可得到整段脚本";
    LessonPick => "Load an example…", "载入一个示例…";
    LessonLabel => "Examples (they replace the sandbox)", "示例（会替换当前沙盒）";
    LessonPagination => "Pagination: limit and continue tokens", "分页：limit 与 continue token";
    LessonCompaction => "Compaction: an old continue token gets 410 Gone", "压缩：旧的 continue token 得到 410 Gone";
    LessonWatch => "Watch from a resourceVersion", "从指定 resourceVersion 开始 watch";
    LessonConflict => "Optimistic concurrency: 409 Conflict", "乐观并发：409 Conflict";
    OpenFull => "Open in the playground ↗", "在完整的实验场中打开 ↗";
    ReadOnly => "read-only", "只读";
    Announce => "line {0}: {1}", "第 {0} 行：{1}";

    // ---- notices
    NoticeSaveFailed => "Your work is not being saved ({0}). Export the script to keep it.", "你的操作没有被保存（{0}）。请导出脚本，以免丢失。";
    NoticeImported => "Imported {0} lines.", "已导入 {0} 行。";
    NoticeImportEmpty => "Import: the file holds no script lines.", "导入：文件里没有脚本行。";
    NoticeImportFailed => "Import failed: {0}", "导入失败：{0}";
    NoticeExportFailed => "Export failed: {0}", "导出失败：{0}";
    NoticeShareOpened => "Opened a shared sandbox ({0} lines).", "已打开分享的沙盒（共 {0} 行）。";
    NoticeShareBadVersion => "This share link was made by a newer rvlab (format “{0}”), so it could not be opened. Started with an empty sandbox.", "此分享链接由更新版本的 rvlab 生成（格式“{0}”），无法打开。已从空沙盒开始。";
    NoticeShareBadEncoding => "This share link is damaged: the text after # is not valid base64url. Started with an empty sandbox.", "此分享链接已损坏：# 之后的内容不是有效的 base64url。已从空沙盒开始。";
    NoticeShareBadData => "This share link is damaged: its data cannot be unpacked into an rvlab sandbox ({0}). Started with an empty sandbox.", "此分享链接已损坏：其中的数据无法还原为 rvlab 沙盒（{0}）。已从空沙盒开始。";
    NoticeLessonUnknown => "There is no lesson “{0}”. Lessons: {1}.", "没有名为“{0}”的课程。可用课程：{1}。";
    NoticeRestored => "Restored your previous sandbox.", "已恢复你之前的沙盒。";
    NoticeCopied => "Link copied to the clipboard.", "链接已复制到剪贴板。";
    NoticeCopyFailed => "Could not copy ({0}): select the link and copy it by hand.", "复制失败（{0}）：请手动选中链接并复制。";

    // ---- what went wrong (model::Problem), the {0} of the notices above
    ProblemNoWindow => "no window", "没有 window 对象";
    ProblemNoDocument => "no document", "没有 document 对象";
    ProblemStorageMissing => "localStorage is not available in this browser", "此浏览器不提供 localStorage";
    ProblemStorageBlocked => "localStorage is blocked: {0}", "localStorage 被阻止：{0}";
    ProblemClipboardMissing => "the Clipboard API is not available", "浏览器不提供剪贴板 API";
    ProblemFileUnreadable => "unreadable file", "文件无法读取";
    ProblemNotWritten => "the sandbox could not be written as JSON", "沙盒无法写成 JSON";
    ProblemNotJson => "not JSON (line {0}, column {1})", "不是 JSON（第 {0} 行第 {1} 列出错）";
    ProblemNotSaved => "not a saved sandbox", "不是保存下来的沙盒";
    ProblemLogNotList => "\"log\" is not a list of lines", "\"log\" 不是由命令行组成的列表";
    ProblemRedoNotList => "\"redo\" is not a list of lines", "\"redo\" 不是由命令行组成的列表";
    ProblemLineNotText => "a line is not text", "有一行不是文本";
    ProblemRedoLineNotText => "a line of \"redo\" is not text", "\"redo\" 中有一行不是文本";
    ProblemNoLog => "no \"log\" list", "没有 \"log\" 列表";
    ProblemTooManyLines => "more than {0} lines", "超过 {0} 行";
    ProblemAtNotStep => "\"at\" is not a step", "\"at\" 不是步骤编号";
    ProblemEmpty => "empty", "数据为空";
    ProblemCutShort => "cut short", "数据被截断";
    ProblemLengthTooLong => "a length is too long", "其中一个长度值过大";
    ProblemBadReference => "a reference points outside the data", "其中一个引用指向数据之外";
    ProblemTooBig => "more than {0} MB", "超过 {0} MB";
    ProblemHttp => "the server answered HTTP {0} {1}", "服务器返回 HTTP {0} {1}";
    ProblemNotResponse => "the answer is not an HTTP response", "返回的不是 HTTP 响应";
    ProblemNotText => "the response is not text", "响应内容不是文本";
    ProblemLessonInvalid => "the lesson file does not parse: {0}", "课程文件无法解析：{0}";

    // ---- share box
    ShareHeading => "Share this sandbox", "分享此沙盒";
    ShareHint => "The link holds every line and the scrubber position in its #fragment: nothing is uploaded. Opening it replays the lines.", "链接的 # 片段里包含每一行命令以及时间轴位置，不会上传任何数据。打开链接就会重放这些命令。";
    ShareLong => "This link is {0} characters long; some chat tools cut long links. For big histories use Export.", "此链接长达 {0} 个字符，部分聊天工具会截断过长的链接。历史较长时请改用“导出”。";
    ShareUrlLabel => "Share link", "分享链接";
    EmbedCodeLabel => "Embed it in a documentation page", "嵌入到文档页面";
    Copy => "Copy", "复制";
    Close => "Close", "关闭";

    // ---- console
    ConsoleHeading => "Console", "控制台";
    LinesCount => " · {0} lines", " · 共 {0} 行";
    WelcomeHeading => "Start here", "从这里开始";
    WelcomeLesson => "New to resourceVersion? The first guided lesson shows where it comes from, one checked step at a time.", "刚接触 resourceVersion？第一课会一步一步（每一步都由引擎检查）带你看它从哪里来。";
    WelcomeLessonBtn => "Start lesson 1", "开始第 1 课";
    WelcomeAllLessons => "All lessons", "全部课程";
    WelcomeTry => "Or run one line and watch the answer appear:", "或者运行一行命令，看看返回了什么：";
    LinesCountOne => " · {0} line", " · 共 {0} 行";
    LogEmpty => "Nothing has run yet. Every click in this playground becomes a line here; you can also type lines below or paste a whole script.", "还没有运行任何命令。在这里的每一次点击都会变成一行脚本；你也可以在下方输入命令，或粘贴一整段脚本。";
    LogTry => "Try one:", "试试这些：";
    SkipToConsole => "Skip to console", "跳到控制台";
    ConsoleInputLabel => "Script line (Enter runs, ↑/↓ history, paste a script to run it all)", "脚本行（回车运行，↑/↓ 翻看历史，粘贴脚本会逐行运行）";
    Run => "Run", "运行";
    LogHidden => "{0} earlier lines are not shown.", "前面还有 {0} 行未显示。";
    FutureStep => "after the scrubber: click to jump here", "位于时间轴位置之后：点击可跳到这里";
    ItemOne => "{0} item", "{0} 项";
    ItemMany => "{0} items", "{0} 项";

    // ---- response
    ResponseHeading => "Response", "响应";
    ExplainToggle => "explain why", "解释原因";
    ExplainTitle => "Adds the engine's reason to every API response (a `set explain` line)", "为每个 API 响应附上引擎给出的原因（即一行 `set explain`）";
    RespEmpty => "No request sent yet. Build a request and press Send, or type a line in the console.", "还没有发送请求。构建一个请求后点“发送”，或在控制台输入一行命令。";
    RespEmptyEmbed => "No request sent yet. Type a line in the console: its answer appears here.", "还没有发送请求。在控制台输入一行命令，它的响应会显示在这里。";
    RespComment => "This line is a comment: it has no output.", "这一行是注释，没有输出。";
    LineN => "line {0}", "第 {0} 行";
    NotLatest => " (selected — not the latest)", "（已选中——不是最新的一行）";
    StatusCode => " · code {0}", " · 状态码 {0}";
    ListMeta => "list RV {0}", "list RV {0}";
    ContinueLabelErr => "metadata.continue of this error (an inconsistent-list token):", "此错误附带的 metadata.continue（一个“不一致列表”token）：";
    ContinueLabel => "metadata.continue (pass it as ?continue= for the next page):", "metadata.continue（作为 ?continue= 传入即可获取下一页）：";
    RequestContinue => "the request's continue token:", "请求中携带的 continue token：";
    UseToken => "Use in request", "填入请求";
    UseTokenTitle => "Put this token in the request builder's continue field", "把这个 token 填入请求构建器的 continue 字段";
    NoNewEvents => "No new events.", "没有新事件。";
    ServerClosedWatch => "The server closed this watch.", "服务器关闭了这个 watch。";
    BodyLabel => "body", "响应体（body）";
    OutputLabel => "output", "输出";
    ColType => "type", "类型";
    ColObject => "object", "对象";
    ColKeyValue => "key / value", "键 / 值";
    ColCreate => "create", "创建";
    ColMod => "mod", "修改";
    ColVer => "ver", "版本";
    ColWhy => "why", "原因";
    Why => "Why?", "为什么？";
    WhyEngine => "The engine's reasoning:", "引擎给出的推理：";

    // ---- "why" for outputs that carry no decision of the engine (decisions are rendered by
    // script::why from the output's "why")
    WhyLineSyntax => "This line is not in the script language, so nothing ran: the error above says where it goes wrong and what may come there. Nothing changed in the cluster.", "这一行不符合脚本语言的写法，所以什么都没有运行：上面的错误指出了出错的位置，以及那里可以写什么。集群没有任何变化。";
    WhyOtherError => "This line ended in the error above, in the words of the part that gave it (etcd or the client). Nothing changed in the cluster.", "这一行以上面的错误结束，用的是给出它的那一方（etcd 或客户端）的原话。集群没有任何变化。";
    WhyLineError => "This line did not run: the engine refused it with the error above. Nothing changed in the cluster.", "这一行没有运行：引擎以上面的错误拒绝了它，集群没有任何变化。";
    WhyNoDecision => "This output carries no recorded decision: switch “explain” on to see why the engine answered this way.", "这个输出没有记录决策：打开“explain”即可看到引擎为什么这样回答。";
    WhyEventsRead => "The frames this watch received since the last read; each frame's “Why?” says what it is.", "这是这个 watch 自上次读取以来收到的帧；每一帧的“为什么？”说明它是什么。";
    WhyEventsNone => "No new frames for this watch since the last read.", "自上次读取以来，这个 watch 没有新的帧。";
    WhyDroppedWatch => "The connection of this watch broke: the server ends the stream, no ERROR frame arrives, and frames not yet read are lost. client-go watches again from its last resourceVersion (after a back-off and a relist if the watch lasted under a second without an event).", "这个 watch 的连接断了：服务器结束这个流，不会有 ERROR 帧，尚未读取的帧也丢失了。client-go 会从它最后的 resourceVersion 重新 watch（如果这个 watch 不到一秒且没有任何事件，则先退避并重新 list）。";
    WhyEventsDropped => "Nothing arrives on a broken connection: for this client the stream is over.", "断开的连接上不会再收到任何东西：对这个客户端来说，这个流已经结束了。";
    WhyDropped => "The informer's connection broke; what it did about it shows in its next “informer show”.", "这个 informer 的连接断了；它如何应对，会显示在下一次 “informer show” 中。";
    WhyAdvance => "Only the simulated clock moved: timeouts, bookmarks and periodic compaction happen when their time comes.", "只有模拟时钟向前走了：超时、bookmark 和周期性压缩会在各自的时间点发生。";
    WhyExpect => "An expectation about the previous line's output: it checks, it changes nothing.", "这是对上一行输出的断言：它只做检查，不改变任何东西。";
    WhySetting => "This line changes the simulation's settings; it has no API answer of its own.", "这一行修改模拟的设置；它本身没有 API 响应。";
    WhyWatchControl => "This line controls a watch stream from the client's side.", "这一行从客户端一侧控制一个 watch 流。";
    WhyOfWatch => "This watch: {0}", "这个 watch：{0}";
    WhyFrameErrorPlain => "The server ended the stream with this Status ({0}).", "服务器以这个 Status（{0}）结束了这个流。";
    WhyFrameAdded => "ADDED “{0}”: the object is new to this watch (just created, or part of the state the watch starts with); {1} is its resourceVersion, the revision of its last change.", "ADDED “{0}”：这个对象对该 watch 来说是新的（刚创建的，或属于 watch 起始时的状态）；{1} 是它的 resourceVersion，即它最后一次变化的 revision。";
    WhyFrameModified => "“{0}” was changed at revision {1}; the frame carries the object as it is after that write.", "“{0}”在 revision {1} 被修改；这一帧携带的是写入之后的对象。";
    WhyFrameDeleted => "“{0}” was deleted at revision {1}; the frame carries its last state.", "“{0}”在 revision {1} 被删除；这一帧携带的是它最后的状态。";
    WhyFrameBookmark => "No object changed: the server tells the watch it has seen everything up to revision {0}, so a restart can resume from there.", "没有对象变化：服务器告诉这个 watch 它已经看到了 revision {0} 之前的一切，重启时可以从这里继续。";

    // ---- watches
    WatchesHeading => "Watches", "Watch";
    WatchesEmpty => "No watch open. Choose verb “watch” in the request builder.", "没有打开的 watch。在请求构建器中把动词选为“watch”即可。";
    WatchCancelled => "cancelled", "已取消";
    WatchClosedByServer => "closed by server", "已被服务器关闭";
    WatchPaused => "paused (events pile up)", "已暂停（事件会积压）";
    WatchOpen => "open", "打开";
    ReadEvents => "Read events", "读取事件";
    Resume => "Resume", "继续";
    Pause => "Pause", "暂停";
    Cancel => "Cancel", "取消";
    NoFrames => "No frames read yet — press Read events.", "还没有读取到帧——点“读取事件”。";

    // ---- request builder
    RequestHeading => "Request", "请求";
    Verb => "verb", "动词";
    Resource => "resource", "资源";
    Namespace => "namespace", "命名空间";
    AllNs => "all", "全部";
    AllNamespaces => "all namespaces", "所有命名空间";
    Name => "name", "名称";
    NameInBody => "name (in body)", "名称（写在 body 中）";
    RvUnset => "unset (most recent)", "不设置（最新）";
    RvAny => "\"0\" (any)", "\"0\"（任意）";
    RvSeen => "resourceVersions seen so far", "目前见过的 resourceVersion";
    Unset => "unset", "不设置";
    NoTokens => "no tokens seen yet", "还没有见过 token";
    PickToken => "pick a token seen…", "选择一个见过的 token…";
    TokensSeen => "continue tokens seen so far", "目前见过的 continue token";
    Decoded => "decoded: {0}", "解码结果：{0}";
    BodyField => "body", "请求体（body）";
    LoadLatest => "Load latest object", "载入最新对象";
    Template => "Template", "模板";
    FillTitle => "Refill the editor: a template for create, the newest copy of the object seen for update", "重新填充编辑器：create 使用模板，update 使用见过的该对象的最新副本";
    BodyInvalid => "Not valid JSON — it is sent as typed; expect an error.", "不是有效的 JSON——会按原样发送，预计会返回错误。";
    ScriptLine => "script line", "脚本行";
    KubectlLabel => "kubectl", "等价的 kubectl 命令";
    Send => "Send", "发送";

    // ---- simulation
    SimHeading => "Simulation", "模拟";
    CreateLabel => "create", "创建";
    HowMany => "how many objects", "对象数量";
    NamePrefix => "name prefix", "名称前缀";
    CreateBtn => "Create", "创建";
    UpdateBtn => "Update", "更新";
    DeleteBtn => "Delete", "删除";
    CompactWindow => "below the cache window", "压缩到 watch cache 窗口之前";
    CompactWindowTitle => "Compact etcd up to the oldest revision any watch cache can still start a watch from: older history goes, every cache window stays whole.", "把 etcd 压缩到所有 watch cache 仍能开始 watch 的最早 revision：更早的历史被删除，每个 cache 窗口保持完整。";
    BuilderCleared => "Cleared {0}: not accepted by a {1} request.", "已清除 {0}：{1} 请求不接受这些参数。";
    BuilderMatchWatch => "A watch takes resourceVersionMatch only together with sendInitialEvents (and then only NotOlderThan).", "watch 只有在设置了 sendInitialEvents 时才接受 resourceVersionMatch（且只能是 NotOlderThan）。";
    BuilderMatchGet => "A get of one object takes no resourceVersionMatch (GetOptions has none).", "获取单个对象（get）不接受 resourceVersionMatch（GetOptions 没有这个字段）。";
    CompactTo => "compact to", "压缩到";
    CompactRev => "revision to compact to", "要压缩到的 revision";
    CompactBtn => "Compact", "压缩";
    CompactTitle => "etcd Compact: history at lower revisions disappears", "etcd Compact：更早 revision 的历史会消失";
    AdvanceClock => "advance clock", "推进时钟";
    LetTimePass => "let time pass", "让时间流逝";
    Speed => "speed", "速度";
    SpeedInstant => "instant", "即时";
    Play => "▶ Play", "▶ 播放";
    PlayPause => "⏸ Pause", "⏸ 暂停";
    PlayStep => "▶ Step", "▶ 单步";
    PlayTitle => "While playing, the clock moves every second by the chosen speed (10× = 10 simulated seconds); the whole Play session is one advance line that grows as it plays, and Pause ends it", "播放时，时钟每秒按所选速度推进一次（10× 即 10 秒模拟时间）；整个播放过程只是一行 advance，随播放不断增长，按暂停即结束这一行";
    PlayStepTitle => "Reduced motion: each click adds one advance line of the chosen speed", "减少动态效果：每次点击按所选速度追加一行 advance";
    PlayInstantTitle => "Instant: use the advance buttons, which apply at once", "即时：使用上面的推进按钮，立即生效";
    ApiserverLabel => "apiserver", "apiserver";
    ApiserverNumber => "apiserver number", "apiserver 编号";
    SendHere => "Send requests here", "把请求发到这里";
    Restart => "Restart", "重启";
    InformerLabel => "informer", "informer";
    InformerName => "informer name", "informer 名称";
    InitialListMode => "initial list mode", "初始 list 模式";
    Start => "Start", "启动";
    InformerTitle => "Starts a client-go style informer on the resource chosen under create", "在“创建”一栏所选的资源上启动一个 client-go 风格的 informer";
    Show => "Show", "显示";
    Stop => "Stop", "停止";
    Settings => "Settings", "设置";
    SetBtn => "Set", "应用";
    HintEvents => "events", "事件数";
    HintDuration => "e.g. 2s", "例如 2s";
    HintCount => "count", "数量";
    SettingsInEffect => "In effect now (set lines change them)", "当前生效的设置（用 set 行修改）";
    SettingsGoTo => "Per-apiserver settings go to apiserver {0} (the one requests go to).", "按 apiserver 的设置作用于 apiserver {0}（请求发往的那台）。";
    SettingsCluster => "cluster: apiservers {0} · etcd {1} · client-go {2}", "集群：apiservers {0} · etcd {1} · client-go {2}";
    SettingsApiserver => "apiserver", "apiserver";
    SettingsNoGates => "defaults", "默认";
    SettingsUnchanged => "This is the value in effect: Set would change nothing.", "这就是当前生效的值：应用不会改变任何东西。";
    EtcdRead => "Read etcd", "读取 etcd";
    EtcdEmpty => "Press Read etcd to see the raw keys, values and revisions under /registry/.", "点“读取 etcd”查看 /registry/ 下原始的键、值和 revision。";
    EtcdAsOf => "as of line {0} · etcd revision {1}", "截至第 {0} 行 · etcd revision {1}";
    EtcdStale => " · later lines may have changed it", " · 之后的行可能已经修改了它";
    NoKeys => "No keys.", "没有键。";

    // ---- scrubber
    ScrubHeading => "History", "历史";
    ScrubStep => "step {0} of {1}", "第 {0} 步，共 {1} 步";
    ScrubFirst => "Go to the start", "回到起点";
    ScrubBack => "Step back", "后退一步";
    ScrubFwd => "Step forward", "前进一步";
    ScrubLast => "Go to now", "回到现在";
    ScrubRange => "Jump to a step", "跳到某一步";
    ScrubPast => "You are looking at the past: the panels show the sandbox after step {0}. The later steps stay until you run a new line here.", "你正在查看过去：各面板显示的是第 {0} 步之后的沙盒。在你从这里运行新命令之前，之后的步骤都会保留。";
    ForkAsk => "Run this here? The {0} later steps will be dropped: history forks after step {1}.", "要在这里运行吗？之后的 {0} 步会被丢弃：历史将在第 {1} 步之后分叉。";
    ForkYes => "Fork here and run", "在此分叉并运行";
    ForkNo => "Keep the history", "保留历史";

    // ---- timeline
    TimelineHeading => "Revision timeline", "revision 时间轴";
    TlDesc => "One lane per etcd key; each bar is one version of it, from the revision that wrote it to the next change. Click a mark to see its line, or Tab to the marks and move with ← →, Enter to see its line.", "每条泳道是一个 etcd 键；每个色块是它的一个版本，从写入它的 revision 延续到下一次修改。点击标记可查看对应的命令行，或按 Tab 进入标记、用 ← → 移动、按 Enter 查看。";
    TlEmpty => "No writes yet: etcd is at revision {0}.", "还没有写入：etcd 处于 revision {0}。";
    TlEmptyHint => "The picture of the apiservers, etcd and each key's revisions is drawn here once a line writes something.", "一旦有命令写入数据，这里就会画出 apiserver、etcd 以及每个 key 的 revision。";
    TlFrom => "from revision", "起始 revision";
    TlTo => "to revision", "结束 revision";
    TlAll => "All", "全部";
    TlZoomIn => "Zoom in", "放大";
    TlZoomOut => "Zoom out", "缩小";
    TlEarlier => "Earlier", "更早";
    TlLater => "Later", "更晚";
    TlShowing => "revisions {0}–{1} of {2}", "显示 revision {0}–{1}（共 {2}）";
    TlDense => "dense: changes are grouped per column", "过于密集：按列聚合显示修改";
    TlFoldLong => "⋯ {0} revisions, writes only — show", "⋯ {0} 个 revision，只有写入 — 展开";
    TlFoldShort => "⋯ {0} — show", "⋯ {0} — 展开";
    TlFoldTiny => "⋯ {0}", "⋯ {0}";
    TlFoldTitle => "Revisions {0}–{1} are folded: {2} revisions with nothing drawn but key writes and the watch cache's snapshot of each (no read, watch, cache edge or compaction). Press to show them.", "revision {0}–{1} 已折叠：这 {2} 个 revision 只有键的写入及 watch cache 为每次写入留的快照（没有读取、watch、缓存边界或压缩）。按下即可展开。";
    TlFoldsNote => "⋯ a fold: revisions with only writes, drawn narrow so the rest has room. Press one to show it (Tab reaches them, ← → move between them).", "⋯ 折叠：只有写入的 revision 被画窄，给其余部分留出空间。按下即可展开（Tab 可到达，← → 在折叠之间移动）。";
    TlScrollHint => "Wider than the panel: scroll sideways for the rest →", "图比面板宽：左右滚动查看其余部分 →";
    TlRefold => "Fold the writes-only stretches again", "重新折叠只有写入的区段";
    TlCompacted => "compacted below {0}", "{0} 之前已压缩";
    TlListAt => "line {0}: list at RV {1}", "第 {0} 行：在 RV {1} 处的 list";
    TlTokenAt => "line {0}: continue token for page {2}, pinned at rv {1}", "第 {0} 行：第 {2} 页的 continue token，固定在 rv {1}";
    TlWatchAt => "{0}: last delivered RV {1}", "{0}：最后送达的 RV 为 {1}";
    TlCacheAt => "apiserver {0}, {1} watch cache: can start watches from RV {2}, holds up to RV {3}", "apiserver {0} 的 {1} watch cache：可从 RV {2} 开始 watch，最新到 RV {3}";
    TlVersion => "{0}\nrevision {1}–{2}\ncreate_revision {3} · mod_revision {1} · version {4}", "{0}\nrevision {1} 至 {2}\ncreate_revision {3} · mod_revision {1} · version {4}";
    TlTombstone => "{0}\ndeleted at revision {1} (tombstone)", "{0}\n在 revision {1} 被删除（tombstone）";
    TlAggregate => "{0}\n{1} changes in revisions {2}–{3}", "{0}\nrevision {2} 至 {3} 之间共有 {1} 次修改";
    TlMoreKeys => "+{0} more keys", "另外 {0} 个键";
    TlMoreKeysOpen => "+{0} more keys, {1} changes in the window — show their lanes", "另外 {0} 个键，窗口内共 {1} 次修改——显示它们的泳道";
    TlNow => "now {0}", "当前 {0}";
    TlTable => "The timeline as a table", "以表格形式查看时间轴";
    TlColKey => "key", "键";
    TlColChanges => "changes (revision: version)", "修改（revision：版本）";
    TlDeletedAt => "deleted at {0}", "在 {0} 删除";
    TlMarks => "Marks", "标记";
    TlNoMarks => "No lists, continue tokens or watches yet.", "还没有 list、continue token 或 watch。";
    TlLegendList => "list RV", "list 的 RV";
    TlLegendToken => "continue token", "continue token";
    TlLegendWatch => "watch position", "watch 位置";
    TlLegendCache => "watch cache window", "watch cache 窗口";
    TlLegendCompacted => "compacted", "已压缩";
    TlTokenLatest => "line {0}: continue token for page {1} at the latest revision (rv -1: no longer one snapshot)", "第 {0} 行：第 {1} 页的 continue token 读取最新 revision（rv -1：不再是同一个快照）";
    TlRefusedAt => "line {0}: {1}, refused at rv {2}", "第 {0} 行：{1}，在 rv {2} 处被拒绝";
    TlRevision => "revision", "revision";
    TlReads => "lists, tokens", "list 与 token";
    TlMoreReads => "{0} more reads here (lines {1}): show them", "此处还有 {0} 个读取（第 {1} 行）：展开";
    TlFewerReads => "Show fewer reads", "收起读取";
    TlMarksKeys => "Reads and watches on the timeline: ← → move between marks, Enter shows the mark's line", "时间线上的读取与 watch：← → 在标记之间移动，Enter 显示该标记的行";
    TlCompaction => "compaction", "压缩";
    TlRound => "round {0}", "第 {0} 轮";
    TlRoundTitle => "compactor round {0}: etcd compacted to revision {1}", "压缩器第 {0} 轮：etcd 压缩到 revision {1}";
    TlApiserver => "apiserver {0}", "apiserver {0}";
    TlCacheBand => "{0}–{1} · {2}/{3}", "{0}–{1} · {2}/{3}";
    TlCacheNotReady => "not ready · 429", "未就绪 · 429";
    TlCacheRow => "apiserver {0}, watch cache of {1}", "apiserver {0} 的 {1} watch cache";
    TlWatchStart => "{0}: starts after RV {1}", "{0}：从 RV {1} 之后开始";
    TlBookmark => "{0}: bookmark at RV {1}", "{0}：RV {1} 处的 bookmark";
    TlEndError => "ERROR {0}", "ERROR {0}";
    TlEndCacheWindow => "ERROR {0}: older than the cache window", "ERROR {0}：早于 cache 窗口";
    TlEndEtcdCompacted => "ERROR {0}: etcd compacted it", "ERROR {0}：etcd 已将其压缩";
    TlEndNotFresh => "ERROR {0}: cache not fresh within {1}", "ERROR {0}：cache 在 {1}内没有追上";
    TlEndPrevKv => "ERROR {0}: previous value compacted", "ERROR {0}：旧值已被压缩";
    TlEndRelisted => "cache relisted after compaction (no ERROR)", "压缩后 cache 重新 list（没有 ERROR）";
    TlEndCacheOff => "watch cache switched off (no ERROR)", "watch cache 被关闭（没有 ERROR）";
    TlEndSlow => "cut off: consumer too slow (no ERROR)", "被切断：消费者太慢（没有 ERROR）";
    TlEndTimeout => "timed out (no ERROR)", "超时结束（没有 ERROR）";
    TlEndCancelled => "cancelled by the client", "被客户端取消";
    TlEndRestart => "apiserver restarted (no ERROR)", "apiserver 重启（没有 ERROR）";
    TlEndClean => "ended (no ERROR)", "已结束（没有 ERROR）";
    TlWatchEnded => "{0} ended: {1}", "{0} 已结束：{1}";
    TlBuffer => "buffer {0}/{1}", "缓冲 {0}/{1}";
    TlWatchRow => "{0}: watch on apiserver {1}, {2}", "{0}：apiserver {1} 上对 {2} 的 watch";
    TlMoreWatches => "+{0} more watches on apiserver {3}: {1} ended with ERROR, {2} ended without — show them", "apiserver {3} 上另外 {0} 个 watch：{1} 个以 ERROR 结束，{2} 个没有 ERROR 就结束了——显示它们";
    TlMoreWatchesOn => "+{0} watches", "另外 {0} 个 watch";
    TlFoldedEnds => "{0} ✕ · {1} ■", "{0} ✕ · {1} ■";
    TlFoldedAt => "{0} folded watches have read up to RV {1}", "{0} 个折叠的 watch 已读到 RV {1}";
    TlLegendError => "ended by an ERROR frame", "因 ERROR 帧结束";
    TlLegendClean => "ended without ERROR", "没有 ERROR 就结束";
    TlCompactKey => "compact_rev_key is hidden: the compactor's bookkeeping, one write per round ({0} so far), each uses a revision", "已隐藏 compact_rev_key：这是压缩器的记账键，每轮写一次（目前 {0} 次），每次都占用一个 revision";
    SvClients => "clients", "客户端";
    SvYou => "you", "你";
    SvLastSync => "lastSync {0}", "lastSync {0}";
    SvInformerTitle => "informer {0}: {1}; lastSyncResourceVersion {2}", "informer {0}：{1}；lastSyncResourceVersion 为 {2}";
    SvToApiserver => "→ apiserver {0}", "→ apiserver {0}";
    SvInformerRow => "informer {0} on {1}, talking to apiserver {2}", "informer {0}（{1}），连接 apiserver {2}";
    SvApiservers => "apiservers", "apiserver";
    SvNoCacheYet => "watch cache: nothing of these resources yet", "watch cache：这些资源还没有内容";
    SvCacheOff => "watch cache off: every read goes to etcd", "watch cache 已关闭：所有读取都到 etcd";
    SvHistory => "history {0}–{1} · {2}/{3}", "历史 {0}–{1} · {2}/{3}";
    SvLag => "lag {0} rev · {1}", "落后 {0} 个 revision · {1}";
    SvLagTitle => "apiserver {0}, {1}: {2} revisions behind etcd, {3} responses in flight, lag {4}", "apiserver {0}，{1}：落后 etcd {2} 个 revision，{3} 个响应仍在途中，延迟 {4}";
    SvRv => "rv {0}", "rv {0}";
    SvHead => "head {0}", "最新 {0}";
    SvNextRound => "next compaction in {0}", "下次压缩在 {0} 后";
    SvWatches => "{0} watches", "{0} 个 watch";
    SvWatchesTitle => "apiserver {0}: {1} watches, {2} open, {3} ended by an ERROR frame, {4} ended without one", "apiserver {0}：{1} 个 watch，{2} 个仍在运行，{3} 个因 ERROR 帧结束，{4} 个没有 ERROR 就结束";
    SvTimerArrive => "{0}: rv {1} arrives in {2}", "{0}：rv {1} 在 {2} 后到达";
    SvTimerFresh => "a consistent read on {0} now waits {1}", "现在对 {0} 的一致性读取要等 {1}";
    SvTimerFreshOut => "a consistent read on {0} now waits {1} in vain, then goes to etcd", "现在对 {0} 的一致性读取会白等 {1}，然后转到 etcd";
    SvTimerReady => "{0} ready in {1} (429 until then)", "{0} 在 {1} 后就绪（在此之前返回 429）";
    SvTimerDeadline => "{0} ends in {1} (timeoutSeconds)", "{0} 在 {1} 后结束（timeoutSeconds）";
    SvTimerBookmark => "{0}: bookmark in {1}", "{0}：{1} 后发送 bookmark";
    SvTimersMore => "+{0} more watch timers (see the table)", "另外 {0} 个 watch 计时器（见表格）";
    SvPathTitle => "the selected line was served by apiserver {0}: {1}", "所选命令行由 apiserver {0} 处理：{1}";
    SvPathCache => "watch cache", "watch cache";
    SvPathSnapshot => "cache snapshot", "cache 快照";
    SvAria => "System: {0} apiservers, etcd at revision {1}; the selected line was served from {2}", "系统：{0} 个 apiserver，etcd 位于 revision {1}；所选命令行由 {2} 提供";
    SvAriaNoPath => "System: {0} apiservers, etcd at revision {1}", "系统：{0} 个 apiserver，etcd 位于 revision {1}";
    TlImgLabel => "Timeline of etcd revisions {0}–{1}: {2} keys, current revision {3}", "etcd revision {0}–{1} 的时间轴：{2} 个键，当前 revision 为 {3}";

    // ---- guided lessons
    Lessons => "Lessons", "课程";
    LessonsTitle => "Guided lessons: each step has a goal that the engine checks", "引导式课程：每一步都有一个由引擎检查的目标";
    LessonsHeading => "Guided lessons", "引导式课程";
    LessonsIntro => "Each lesson starts a fresh sandbox (your current one is kept and can be restored). Every step has a goal; do it your way or press Show me, then Check.", "每节课都会开启一个新的沙盒（当前沙盒会被保留，可以恢复）。每一步都有一个目标：你可以自己动手，也可以点“演示给我看”，然后点“检查”。";
    LessonLoading => "Loading the lesson…", "正在加载课程…";
    LessonLoadFailed => "Could not load {0}: {1}", "无法加载 {0}：{1}";
    Retry => "Retry", "重试";
    LessonProgress => "{0}/{1} steps", "已完成 {0}/{1} 步";
    LessonDoneMark => "✓ done", "✓ 已完成";
    LessonStepOf => "Step {0} of {1}", "第 {0} 步，共 {1} 步";
    LessonGoal => "Goal:", "目标：";
    ShowMe => "Show me", "演示给我看";
    ShowMeTitle => "Run this step's reference solution: its lines go into the log like any other", "运行这一步的参考答案：这些命令会像其他命令一样记入日志";
    CheckStep => "Check", "检查";
    CheckTitle => "Check the goal against the outputs produced since this step began", "根据这一步开始以来产生的输出检查目标是否达成";
    CheckPassed => "Goal reached.", "目标已达成。";
    CheckMissing => "Not yet. Still missing:", "还没有完成。仍然缺少：";
    CheckStale => "The sandbox changed since the last check: press Check again.", "上次检查之后沙盒有了变化：请再点一次“检查”。";
    PrevStep => "← Previous", "← 上一步";
    NextStep => "Next →", "下一步 →";
    LessonComplete => "Lesson complete. Keep experimenting in this sandbox, or pick another lesson.", "本课完成！你可以继续在这个沙盒里实验，或者选择另一节课。";
    LeaveLesson => "Leave the lesson", "离开课程";
    LeaveTitle => "Close the lesson and keep playing freely in this sandbox", "关闭课程，在当前沙盒里自由练习";
    AllLessons => "All lessons", "全部课程";
    LessonReplay => "Read-only: Previous and Next move the history to the end of each step.", "只读模式：“上一步”和“下一步”会把历史移动到每一步结束的位置。";
    NoticeLessonStarted => "Started the lesson “{0}”. Your previous sandbox was kept.", "已开始课程“{0}”。你之前的沙盒已保留。";
    NoticeProgressNotSaved => "Lesson progress is not being saved ({0}).", "课程进度没有被保存（{0}）。";

    // ---- limits and hostile input
    NoticeScriptTooBig => "Not run: this script has {0} lines and {1} KB; the limit is {2} lines and {3} KB at once. Split it, or run it with the command line (rvlab run).", "未运行：这段脚本有 {0} 行、{1} KB；一次最多 {2} 行、{3} KB。请拆分后再运行，或者用命令行（rvlab run）运行。";
    NoticeLineTooLong => "Not run: line {0} is {1} KB long; one line may be at most {2} KB.", "未运行：第 {0} 行长达 {1} KB；每行最多 {2} KB。";
    ShowMore => "Show more ({0} more)", "显示更多（还有 {0} 项）";
    JsonCut => "Showing the first {0} KB of {1} KB.", "仅显示前 {0} KB（共 {1} KB）。";
    ShowAllJson => "Show more", "显示更多";

    // ---- crash overlay (plain DOM, after a panic)
    CrashTitle => "rvlab stopped working", "rvlab 停止运行了";
    CrashBody => "Something went wrong inside rvlab and this page can no longer run commands. Your command log is saved in this browser: reload to get it back.", "rvlab 内部出错了，这个页面已无法继续运行命令。你的命令记录已保存在浏览器中：重新加载页面即可恢复。";
    CrashLine => "The line that was running (it is not in the restored log): {0}", "出错时正在运行的命令（恢复的记录中不包含它）：{0}";
    CrashReload => "Reload and restore", "重新加载并恢复";
    CrashExport => "Export the log", "导出命令记录";
    CrashNotSaved => "The log could not be saved in this browser ({0}): export it before you reload.", "无法把命令记录保存到浏览器（{0}）：请在重新加载之前先导出。";

    // ---- a saved sandbox that cannot be read is never overwritten
    NoticeRestoreFailedKept => "The saved sandbox ({0}) could not be read: {1}. Its text is kept as it was under {2}; this sandbox starts empty.", "无法读取已保存的沙盒（{0}）：{1}。它的原文已原样保存在 {2} 下；现在从空沙盒开始。";
    NoticeRestoreFailedNotSaving => "The saved sandbox ({0}) could not be read: {1}. Started with an empty sandbox that this tab does not save, so the saved text stays as it was.", "无法读取已保存的沙盒（{0}）：{1}。已从空沙盒开始；这个标签页不会保存它，已保存的内容保持原样。";

    // ---- two tabs
    NoticeOtherTab => "Another tab saved its sandbox over this one. This tab no longer saves, so it does not overwrite that one: reload to continue with it, or export this script to keep it.", "另一个标签页保存了它的沙盒，覆盖了这里的。这个标签页不再保存，以免覆盖那个沙盒：重新加载页面即可接着使用它，或者导出当前脚本以保留这里的内容。";
}

impl K {
    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en(),
            Lang::Zh => self.zh(),
        }
    }
}

/// Replaces `{0}`, `{1}` … in `pattern` with `args`.
pub fn fill(pattern: &str, args: &[&dyn Display]) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut rest = pattern;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.find('}').and_then(|j| after[..j].parse::<usize>().ok().map(|n| (j, n))) {
            Some((j, n)) if n < args.len() => {
                out.push_str(&args[n].to_string());
                rest = &after[j + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The placeholders a pattern uses, sorted (for the completeness test).
pub fn placeholders(pattern: &str) -> Vec<usize> {
    let mut v: Vec<usize> = pattern
        .split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').and_then(|(n, _)| n.parse().ok()))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// A translator for one language: `tr.t(K::Send)`, `tr.f(K::LineN, &[&3])`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Tr(pub Lang);

impl Tr {
    pub fn t(self, k: K) -> &'static str {
        k.get(self.0)
    }
    pub fn f(self, k: K, args: &[&dyn Display]) -> String {
        fill(k.get(self.0), args)
    }
    /// " · 1 line" / " · 3 lines" (the console's heading).
    pub fn lines(self, n: usize) -> String {
        self.f(if n == 1 { K::LinesCountOne } else { K::LinesCount }, &[&n])
    }
    /// "1 item" / "3 items".
    pub fn items(self, n: usize) -> String {
        self.f(if n == 1 { K::ItemOne } else { K::ItemMany }, &[&n])
    }
}

/// The translator of the surrounding app (English when there is none).
#[hook]
pub fn use_tr() -> Tr {
    use_context::<Lang>().map(Tr).unwrap_or_default()
}
