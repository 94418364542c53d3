import FoundationEssentials
package import HLSCheck

/// The findings a stream had before embed, so that the re-check's can be told apart: those that
/// were in the ladder already (a wrong CODECS on a video variant, say) and those in what embed
/// wrote. A packaging pipeline must be able to tell "embed failed" from "the ladder had old
/// findings" (docs/embed.md, "Exit code").
///
/// A finding is the same when its rule, its file relative to the stream's folder and its line
/// are: embed keeps every line of every playlist where it was (it changes attribute values and
/// URIs in place, and appends or replaces whole entries), so a finding at the same place under
/// the same rule is the one that was there before, whatever numbers its message now gives.
struct PriorFindings: Sendable {
    struct Key: Hashable {
        var rule: String
        var file: String?
        var line: Int?
    }

    private var keys: Set<Key>
    /// How many findings (not suppressed) the stream had before embed.
    let count: Int

    /// `diagnostics` of the stream before embed, whose files lie under `root`.
    init(_ diagnostics: [Diagnostic], root: String) {
        let working = FileManager.default.currentDirectoryPath
        let counted = diagnostics.filter { !$0.suppressed }
        keys = Set(counted.map { Self.key($0, root: root, working: working) })
        count = counted.count
    }

    /// The findings of `diagnostics` (the re-check's, files under `root`) that were not in the
    /// stream before, and those that were.
    func split(_ diagnostics: [Diagnostic], root: String) -> (written: [Diagnostic], before: [Diagnostic]) {
        let working = FileManager.default.currentDirectoryPath
        var written: [Diagnostic] = [], before: [Diagnostic] = []
        for diagnostic in diagnostics {
            if keys.contains(Self.key(diagnostic, root: root, working: working)) {
                before.append(diagnostic)
            } else {
                written.append(diagnostic)
            }
        }
        return (written, before)
    }

    private static func key(_ diagnostic: Diagnostic, root: String, working: String) -> Key {
        guard let location = diagnostic.location else { return Key(rule: diagnostic.rule) }
        let path = StreamLayout.standardized(StreamLayout.file(location.uri), in: working)
        let base = StreamLayout.standardized(root, in: working)
        let relative = path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
        return Key(rule: diagnostic.rule, file: relative, line: location.line)
    }
}

/// The re-check of what embed wrote, with the findings that were in the ladder before set apart.
package struct EmbedVerdict: Sendable {
    /// The re-check's findings in what embed wrote (not in the stream before).
    package var written: [Diagnostic]
    /// The re-check's findings that were in the stream before embed.
    package var before: [Diagnostic]

    /// When findings make the run fail.
    package enum FailPolicy: Sendable, Hashable {
        /// The default: a finding at error in what embed wrote; old ones never.
        case writtenErrors
        /// `--fail-on`: any finding at or above this severity, old ones included.
        case atOrAbove(Severity)
        /// `--fail-on never`.
        case never
    }

    /// Whether the run fails under `policy`. Suppressed findings never fail, as in `hlscheck check`.
    package func fails(_ policy: FailPolicy) -> Bool {
        switch policy {
        case .writtenErrors: return written.contains { !$0.suppressed && $0.severity >= .error }
        case .atOrAbove(let threshold):
            return (written + before).contains { !$0.suppressed && $0.severity >= threshold }
        case .never: return false
        }
    }

    /// The findings that were in the ladder before embed and are still there (not suppressed).
    package var beforeCount: Int { before.filter { !$0.suppressed }.count }
}
