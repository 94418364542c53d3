import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import MediaFormats
import FileSystem

/// Known findings recorded once (`hlscheck check --write-baseline FILE`) so that a later run
/// (`--baseline FILE`) fails only on new ones, as SwiftLint's baseline does.
///
/// A finding's identity is its rule id, its file relative to the repository root, and the text
/// of the line it is on (trimmed) — not the line number, so a finding keeps its identity when
/// lines are added above it. A finding without a line (about the whole stream) is identified by
/// its message instead. Identities are counted: when three findings share one identity (the same
/// rule on three identical `#EXTINF:10.0,` lines) and the baseline knows two, the first two are
/// known and the third is new.
package struct Baseline: Sendable {
    /// One recorded finding. `line` and `message` are for people reading the file; identity is
    /// `rule`, `file` and `source` (or `message` when there is no source line).
    package struct Entry: Codable, Sendable, Hashable {
        package var rule: String
        package var file: String
        package var line: Int?
        package var source: String?
        package var message: String

        var identity: Identity { Identity(rule: rule, file: file, text: source ?? message) }
    }

    struct Identity: Hashable {
        var rule: String
        var file: String
        var text: String
    }

    struct Document: Codable {
        var tool = "hlscheck"
        var baselineVersion = 1
        var findings: [Entry]
    }

    private var counts: [Identity: Int] = [:]
    package private(set) var entries: [Entry] = []

    package init(entries: [Entry]) {
        self.entries = entries
        for entry in entries { counts[entry.identity, default: 0] += 1 }
    }

    /// Reads a baseline file; a missing or damaged file is an error naming it (exit code 2: a run
    /// against a baseline that cannot be read must not pass as if every finding were new, nor
    /// as if none were).
    package static func load(_ path: String) throws(CheckError) -> Baseline {
        let shown = TerminalText.escaped(path)
        let bytes: [UInt8]
        do {
            // A regular file only (a FIFO would block the run), and a bounded one.
            let file = try RegularFile(path: path)
            guard file.size <= maximumBytes else {
                throw CheckError(
                    "--baseline \(shown): \(file.size) bytes, over the 256 MiB a baseline may have; is it the right file?"
                )
            }
            bytes = try file.readAll(maximumBytes: maximumBytes, limitHint: "a smaller baseline")
        } catch let error as CheckError {
            throw error
        } catch {
            throw CheckError(
                "--baseline \(shown): cannot read the file (\((error as? RegularFileError)?.reason ?? "\(error)")); create it with --write-baseline \(shown)"
            )
        }
        do {
            let document = try JSONDecoder().decode(Document.self, from: Data(bytes))
            guard document.tool == "hlscheck", document.baselineVersion == 1 else {
                throw CheckError("not an hlscheck baseline of version 1")
            }
            return Baseline(entries: document.findings)
        } catch {
            let reason =
                (error as? CheckError)?.description
                ?? "not a baseline file written by --write-baseline (\(Self.reason(error)))"
            throw CheckError("--baseline \(shown): \(reason); write a new one with --write-baseline \(shown)")
        }
    }

    static let maximumBytes = 256 << 20

    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted?: "not valid JSON"
        case .keyNotFound(let key, _)?: "the key \"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            "a wrong value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "unreadable"
        }
    }

    /// Writes the baseline atomically (a reader never sees half a file), entries sorted by file,
    /// line and rule so that the file diffs well in review.
    package func write(to path: String) throws(CheckError) {
        let sorted = entries.sorted {
            ($0.file, $0.line ?? 0, $0.rule, $0.source ?? "", $0.message) < (
                $1.file, $1.line ?? 0, $1.rule, $1.source ?? "", $1.message
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Document(findings: sorted)) else {
            throw CheckError("--write-baseline \(TerminalText.escaped(path)): the findings cannot be encoded")
        }
        do {
            try AtomicFile.write(Array(data) + [0x0A], to: path)
        } catch {
            throw CheckError("--write-baseline: \(TerminalText.escaped(error.description))")
        }
    }

    /// The baseline entries of a report's findings: every finding but those a comment excuses
    /// (they are excused already) and inputs that could not be read (not findings of a stream).
    package static func entries(of report: CheckReport, lines: inout BaselineLines) -> [Entry] {
        report.diagnostics.compactMap { diagnostic in
            guard !(diagnostic.suppressed && !diagnostic.baselined), diagnostic.rule != CheckReport.inputUnreadableRule
            else { return nil }
            return entry(diagnostic, input: report.input, lines: &lines)
        }
    }

    static func entry(_ diagnostic: Diagnostic, input: String, lines: inout BaselineLines) -> Entry {
        let uri = diagnostic.location?.uri ?? input
        let line = diagnostic.location.flatMap { $0.line > 0 ? $0.line : nil }
        return Entry(
            rule: diagnostic.rule, file: lines.repositoryPath(uri), line: line,
            source: line.flatMap { lines.text(of: uri, line: $0) }, message: diagnostic.message)
    }

    /// Marks the findings this baseline knows as baselined (and suppressed: reported, never
    /// counted); the others stay as they are. Returns the report.
    package func apply(to report: CheckReport, lines: inout BaselineLines) -> CheckReport {
        var report = report
        var remaining: [Identity: Int] = [:]
        for index in report.diagnostics.indices {
            let diagnostic = report.diagnostics[index]
            guard !diagnostic.suppressed, diagnostic.rule != CheckReport.inputUnreadableRule else { continue }
            let identity = Self.entry(diagnostic, input: report.input, lines: &lines).identity
            let left = remaining[identity] ?? counts[identity] ?? 0
            guard left > 0 else { continue }
            remaining[identity] = left - 1
            report.diagnostics[index].suppressed = true
            report.diagnostics[index].baselined = true
        }
        return report
    }
}

/// The text of playlist lines, read once per file, and file names relative to the repository
/// root: what a baseline identifies findings by.
package struct BaselineLines {
    /// The folder paths are made relative to: the git top level above the working directory
    /// (the nearest folder holding `.git`), else the working directory.
    package let root: String
    private let workingDirectory: String
    private let maximumBytes: Int
    private var cache: [String: [Substring]] = [:]

    /// `root` defaults to `BaselineLines.repositoryRoot()`; give it when making many (one per
    /// stream) to look it up once.
    package init(root: String? = nil, maximumBytes: Int = Limits().playlistBytes) {
        workingDirectory = FileManager.default.currentDirectoryPath
        self.root = root ?? Self.repositoryRoot()
        self.maximumBytes = maximumBytes
    }

    /// The nearest folder at or above the working directory holding `.git`, else the working
    /// directory itself.
    package static func repositoryRoot() -> String {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        var folder = cwd
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path) { return folder.path }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return cwd.path }
            folder = parent
        }
    }

    /// `uri` relative to `root` and normalised (`./a/../b` → `b`); a URL, or a path outside the
    /// root, stays absolute.
    package func repositoryPath(_ uri: String) -> String {
        guard !uri.contains("://") else { return uri }
        let absolute = URL(fileURLWithPath: uri, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true))
            .standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// Line `line` (from 1) of a local file, trimmed of surrounding whitespace and cut at 500
    /// characters; nil for a URL, a file that cannot be read, or a line it does not have.
    package mutating func text(of uri: String, line: Int) -> String? {
        guard !uri.contains("://"), line > 0 else { return nil }
        if cache[uri] == nil {
            // A report's location is the path of the file that was read (`CheckReport.namingFiles`).
            guard let file = try? RegularFile(path: uri),
                let data = try? file.readAll(maximumBytes: maximumBytes, limitHint: "--max-playlist-bytes")
            else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            cache[uri] = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        }
        guard let lines = cache[uri], line <= lines.count else { return nil }
        let trimmed = lines[line - 1].trimmingWhiteSpace()
        return String(trimmed.prefix(500))
    }
}
