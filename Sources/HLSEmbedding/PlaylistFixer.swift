package import HLSCheck
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaFormats
import HLSPlaylist
import FileSystem

/// What `hlscheck fix` was asked to do.
package struct FixRequest: Sendable {
    /// The multivariant or media playlist.
    package var input: String
    /// Where the fixed playlists go; nil: nowhere (`--diff` shows the edits and writes nothing).
    package var destination: EmbedRequest.Destination?
    /// The tolerances and limits the stream is measured and re-checked with.
    package var configuration: CheckConfiguration
    /// When another run holds the stream's lock: wait for it (true) or refuse.
    package var wait = false
    /// Messages for the user while the run goes on.
    package var report: @Sendable (String) -> Void = { _ in }
    /// Called before each step of writing (see ``EmbedRequest/writeStepHook``).
    package var writeStepHook: (@Sendable (Int) -> Void)?

    package init(
        input: String, destination: EmbedRequest.Destination?, configuration: CheckConfiguration = CheckConfiguration()
    ) {
        self.input = input
        self.destination = destination
        self.configuration = configuration
    }
}

/// What `hlscheck fix` did, or would do.
package struct FixOutcome: Sendable {
    /// One playlist the edits change.
    package struct ChangedPlaylist: Sendable {
        /// The playlist's file, as the input named it (`ladder/master.m3u8`).
        package var file: String
        /// Its bytes as read, and with the edits.
        package var before: [UInt8]
        package var after: [UInt8]
        /// The edits, in line order.
        package var fixes: [PlaylistFix]
    }

    /// The playlists that change, root first.
    package var changed: [ChangedPlaylist]
    /// Findings of the check no edit settles: for a person to look at.
    package var unfixed: [Diagnostic]
    /// The written input playlist; nil for `--diff`.
    package var output: String?
    /// The check of what was written; nil for `--diff`.
    package var verification: CheckReport?
}

/// `hlscheck fix`: measures the stream, plans the edits the measurements prove (FixPlan),
/// applies them to the playlists' bytes (PlaylistEditor) and writes them with embed's writer —
/// the same lock, digest check, journal and renames (docs/fix.md, docs/embed.md).
package struct PlaylistFixer: Sendable {
    package var request: FixRequest

    package init(_ request: FixRequest) {
        self.request = request
    }

    package func run() async throws(EmbedError) -> FixOutcome {
        let lock =
            request.destination == .inPlace
            ? try StreamWriter.lockInPlace(request.input, wait: request.wait, report: request.report) : nil
        defer { lock?.release() }
        let analysis = try await StreamWriter.analyse(request.input, configuration: request.configuration)
        let checker = Checker(configuration: request.configuration)
        let plan = FixPlan(analysis, configuration: request.configuration)
        let changed = try changedPlaylists(analysis, plan)
        let unfixed = checker.diagnose(analysis).filter { diagnostic in
            !diagnostic.suppressed && !diagnostic.baselined && plan.fix(for: diagnostic) == nil
        }.map { diagnostic in
            var named = diagnostic
            if let uri = diagnostic.location?.uri { named.location?.uri = StreamLayout.file(uri) }
            return named
        }
        guard let destination = request.destination else {
            return FixOutcome(changed: changed, unfixed: unfixed, output: nil, verification: nil)
        }

        try StreamLayout.requirePlainFileNames(analysis)
        if destination == .inPlace, let live = FixPlan.mediaPlaylists(analysis).first(where: { !$0.2.endList }) {
            throw EmbedError(
                "\(StreamLayout.file(live.0)) has no EXT-X-ENDLIST: a live stream whose encoder may still be writing its playlists and would write back what fix changed; fix it in place once it has ended, or write a copy with --output"
            )
        }
        let layout = try StreamLayout(analysis)
        if let lock { try StreamWriter.removeInterruptedLocks(layout, held: lock, report: request.report) }
        // In place with nothing to change: nothing is written (no journal, no rename).
        let output =
            destination == .inPlace && changed.isEmpty
            ? layout.absolute(layout.rootPlaylist)
            : try write(changed, plan, layout: layout, destination: destination, lock: lock)
        lock?.release()

        let verification: CheckReport
        do {
            var configuration = request.configuration
            if configuration.confinement.root == nil {
                configuration.confinement.root = StreamRoot.commonFolder(of: [request.input, output])
            }
            var recheck = Checker(configuration: configuration)
            recheck.knownSegments = knownSegments(analysis, layout: layout, output: output)
            verification = try await recheck.check(output)
        } catch {
            throw EmbedError("wrote \(output) but cannot re-check it: \(error.description)")
        }
        return FixOutcome(changed: changed, unfixed: unfixed, output: output, verification: verification)
    }

    /// Writes the changed playlists with embed's writer: every other file of the stream as it is.
    func write(
        _ changed: [FixOutcome.ChangedPlaylist], _ plan: FixPlan, layout: StreamLayout,
        destination: EmbedRequest.Destination,
        lock: StreamLock?
    ) throws(EmbedError) -> String {
        var writer = StreamWriter(
            layout: layout, destination: destination, wait: request.wait, report: request.report,
            hook: request.writeStepHook)
        writer.editedPlaylists = Dictionary(
            uniqueKeysWithValues: zip(plan.playlists, changed).map { (layout.relative($0), $1.after) })
        return try writer.write(multivariant: nil, targets: [], lock: lock) {
            (_: StreamWriter.Put) throws(EmbedError) in
        }
    }

    /// The new bytes of every playlist the plan edits, made from the bytes the analysis parsed:
    /// refused when the file changed since (another program writing it).
    func changedPlaylists(_ analysis: StreamAnalysis, _ plan: FixPlan) throws(EmbedError) -> [FixOutcome
        .ChangedPlaylist]
    {
        var result: [FixOutcome.ChangedPlaylist] = []
        let byPlaylist = Dictionary(grouping: plan.fixes, by: \.playlist)
        for uri in plan.playlists {
            let file = StreamLayout.file(uri)
            let parsed = uri == analysis.loaded.rootURI ? analysis.root : analysis.loaded.mediaPlaylists[uri]
            let bytes: [UInt8]
            do {
                bytes = try RegularFile(path: file).readAll(maximumBytes: .max, limitHint: "")
            } catch {
                throw EmbedError("\(file): cannot read it again: \(error.reason)")
            }
            guard let parsed, PlaylistSourceDigest(bytes) == parsed.sourceDigest else {
                throw EmbedError(
                    "\(file) changed while hlscheck was reading the stream (another program is writing it); nothing was changed — run again when it is done"
                )
            }
            let fixes = byPlaylist[uri] ?? []
            let after: [UInt8]
            do {
                after = try FixPlan.apply(fixes, to: bytes)
            } catch {
                throw EmbedError("\(file): cannot apply the edits: \(error)")
            }
            result.append(FixOutcome.ChangedPlaylist(file: file, before: bytes, after: after, fixes: fixes))
        }
        return result
    }

    /// Every segment is as it was: the re-check takes the measured records instead of reading
    /// them again (KnownSegments; the playlists' new EXTINF values are their own).
    func knownSegments(_ analysis: StreamAnalysis, layout: StreamLayout, output: String) -> KnownSegments? {
        let configuration = request.configuration
        guard !configuration.decode, configuration.liveWatchSeconds == nil,
            output.hasSuffix("/" + layout.rootPlaylist)
        else { return nil }
        let root = String(output.dropLast(layout.rootPlaylist.count + 1))
        var known = KnownSegments()
        for (uri, measurement) in analysis.measurements {
            known.set(measurement.records.map { $0 }, forPlaylistAt: PathString.join(root, layout.relative(uri)))
        }
        return known
    }
}

extension FixOutcome.ChangedPlaylist {
    /// The edits as a unified diff, as text (see ``unifiedDiff(forTerminal:)``).
    package var unifiedDiff: String { String(decoding: unifiedDiff(forTerminal: false), as: UTF8.self) }

    /// The edits as a unified diff (`--- a/FILE`, `+++ b/FILE`, hunks with three lines of
    /// context), aligned by the edits themselves: each is confined to its line or inserts lines
    /// after it, so line `i` of the old bytes is followed in the new bytes by its own line and
    /// the lines inserted after it — linear in the playlist's lines.
    ///
    /// For `patch` (`forTerminal` false) every line carries the playlist's bytes as they are,
    /// line ending (CR LF) included, so the diff applies to the very bytes it was made from; a
    /// last line without a line feed gets diff's `\ No newline at end of file`. For a terminal
    /// the lines are for reading: control characters are shown escaped (TerminalText), as `check`
    /// shows a playlist's text. The file names are quoted as git quotes them whenever they hold
    /// a control character, a quote, a backslash or a byte beyond ASCII, so that a name holding a
    /// line break cannot add header or hunk lines (GNU patch reads the quoted form).
    package func unifiedDiff(forTerminal: Bool) -> [UInt8] {
        let old = Self.lines(before), new = Self.lines(after)
        var insertedAfter: [Int: Int] = [:]
        for fix in fixes {
            if case .insertLine = fix.change { insertedAfter[fix.line, default: 0] += 1 }
        }
        enum Operation { case same(Int), removed(Int), added(Int) }
        var operations: [Operation] = []
        var next = 0
        for index in old.indices {
            guard next < new.count else { break }
            if old[index] == new[next] {
                operations.append(.same(index))
            } else {
                operations += [.removed(index), .added(next)]
            }
            next += 1
            for _ in 0..<(insertedAfter[index + 1] ?? 0) where next < new.count {
                operations.append(.added(next))
                next += 1
            }
        }
        // Each operation's line numbers before and after (1-based, of the next line to come).
        var oldNumber = [Int](), newNumber = [Int]()
        var o = 1, n = 1
        for operation in operations {
            oldNumber.append(o)
            newNumber.append(n)
            switch operation {
            case .same: o += 1; n += 1
            case .removed: o += 1
            case .added: n += 1
            }
        }
        let changes = operations.indices.filter { if case .same = operations[$0] { return false } else { return true } }
        guard !changes.isEmpty else { return [] }
        // As git and diff -u name files: a/ and b/ before a relative path (patch -p1 from the
        // folder the command ran in), an absolute path as it is (patch -p0).
        let (oldName, newName) = file.hasPrefix("/") ? (file, file) : ("a/" + file, "b/" + file)
        var text = Array("--- \(Self.quotedName(oldName))\n+++ \(Self.quotedName(newName))\n".utf8)
        func append(_ marker: UInt8, _ line: ArraySlice<UInt8>) {
            text.append(marker)
            if forTerminal {
                let content = line.last == UInt8(ascii: "\n") ? line.dropLast() : line
                let shown = content.last == UInt8(ascii: "\r") ? content.dropLast() : content
                text += Array(TerminalText.escaped(String(decoding: shown, as: UTF8.self)).utf8)
                text.append(UInt8(ascii: "\n"))
            } else if line.last == UInt8(ascii: "\n") {
                text += line
            } else {
                text += line
                text += Array("\n\\ No newline at end of file\n".utf8)
            }
        }
        let context = 3
        var start = 0
        while start < changes.count {
            var end = start
            while end + 1 < changes.count, changes[end + 1] - changes[end] <= 2 * context + 1 { end += 1 }
            let first = max(0, changes[start] - context), last = min(operations.count - 1, changes[end] + context)
            var oldCount = 0, newCount = 0
            for operation in operations[first...last] {
                switch operation {
                case .same: oldCount += 1; newCount += 1
                case .removed: oldCount += 1
                case .added: newCount += 1
                }
            }
            // An empty range is numbered by the line before it (diff(1)'s convention).
            let oldStart = oldCount == 0 ? oldNumber[first] - 1 : oldNumber[first]
            let newStart = newCount == 0 ? newNumber[first] - 1 : newNumber[first]
            text += Array("@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n".utf8)
            for operation in operations[first...last] {
                switch operation {
                case .same(let index): append(UInt8(ascii: " "), old[index])
                case .removed(let index): append(UInt8(ascii: "-"), old[index])
                case .added(let index): append(UInt8(ascii: "+"), new[index])
                }
            }
            start = end + 1
        }
        return text
    }

    /// The lines of `bytes`, each with its line feed (the last may have none).
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            result.append(bytes[start...index])
            start = index + 1
        }
        if start < bytes.endIndex { result.append(bytes[start...]) }
        return result
    }

    /// `name` as git writes a path in a diff header: as it is when it holds only printable ASCII
    /// other than `"` and `\`; else in double quotes with C escapes (`\n`, `\t`, `\"`, `\\`) and
    /// every other control or non-ASCII byte as three octal digits (`\303\251`), which GNU
    /// patch and git apply read back.
    package static func quotedName(_ name: String) -> String {
        let bytes = Array(name.utf8)
        let plain = { (byte: UInt8) in
            byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
        guard !bytes.allSatisfy(plain) else { return name }
        var quoted = "\""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): quoted += "\\\""
            case UInt8(ascii: "\\"): quoted += "\\\\"
            case 0x07: quoted += "\\a"
            case 0x08: quoted += "\\b"
            case 0x09: quoted += "\\t"
            case 0x0A: quoted += "\\n"
            case 0x0B: quoted += "\\v"
            case 0x0C: quoted += "\\f"
            case 0x0D: quoted += "\\r"
            case let byte where plain(byte): quoted.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let octal = String(byte, radix: 8)
                quoted += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return quoted + "\""
    }
}
