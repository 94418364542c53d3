package import HLSCheck
import MediaFormats
import FileSystem

/// The text of the lines findings are on, read again from the playlists after the check, so
/// that SARIF fingerprints follow a line's content rather than its number. Only regular files
/// are opened (never a FIFO or a device), each at most once and within the playlist size limit;
/// a file that cannot be read again simply has no lines here.
package struct SourceLines: Sendable {
    /// Line text by report path, then 1-based line number.
    var lines: [String: [Int: String]]

    package init(_ lines: [String: [Int: String]] = [:]) {
        self.lines = lines
    }

    package func text(of path: String, line: Int) -> String? {
        lines[path]?[line]
    }

    /// The lines of every finding of `reports` (paths as `paths` shows them), read from disk.
    /// Inputs that could not be checked are not opened again, nor are URLs.
    package static func read(for reports: [CheckReport], paths: ReportPaths, maximumBytes: Int) -> SourceLines {
        var wanted: [String: Set<Int>] = [:]
        for report in reports where report.inputError == nil {
            for diagnostic in report.diagnostics {
                guard let location = diagnostic.location, location.line > 0 else { continue }
                wanted[location.uri, default: []].insert(location.line)
                // The line a proposed edit changes, for SARIF's replacement regions.
                if let fix = diagnostic.fix, fix.line > 0 { wanted[fix.uri, default: []].insert(fix.line) }
            }
        }
        var lines: [String: [Int: String]] = [:]
        for (path, numbers) in wanted {
            guard let absolute = paths.resolve(path),
                let file = try? RegularFile(path: absolute),
                let bytes = try? file.readAll(maximumBytes: maximumBytes, limitHint: "--max-playlist-bytes")
            else { continue }
            var found: [Int: String] = [:]
            var number = 1
            for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                if numbers.contains(number) { found[number] = String(decoding: line, as: UTF8.self) }
                number += 1
            }
            lines[path] = found
        }
        return SourceLines(lines)
    }
}
