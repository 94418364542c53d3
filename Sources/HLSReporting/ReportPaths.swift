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

/// Paths as every report shows them: relative to the repository root, normalised (no `./`, no
/// `..` that can be resolved), so that GitHub annotations, SARIF results and JUnit `file`
/// attributes point at the files of the checkout whatever folder the tool was run from.
///
/// A local path is made absolute against the working directory, its `.` and `..` segments are
/// resolved lexically, and it is shown relative to `root`; a path outside the root is shown
/// absolute (a `..` that climbs out of the repository would name a file of another checkout).
/// URLs are left alone.
package struct ReportPaths: Sendable, Hashable {
    /// The repository root, absolute and normalised.
    package var root: String
    /// The folder relative paths are read from (the process's current directory).
    package var workingDirectory: String

    package init(root: String, workingDirectory: String) {
        let cwd = Self.normalised(workingDirectory.hasPrefix("/") ? workingDirectory : "/" + workingDirectory)
        self.workingDirectory = cwd
        self.root = Self.normalised(root.hasPrefix("/") ? root : cwd + "/" + root)
    }

    /// The root for a run: the git work tree holding the first local input (the nearest folder
    /// above it with a `.git` entry, as `git rev-parse --show-toplevel` finds it), else `fallback`
    /// (`--root`), else the working directory.
    package static func forRun(inputs: [String], fallback: String?, workingDirectory: String) -> ReportPaths {
        let paths = ReportPaths(root: workingDirectory, workingDirectory: workingDirectory)
        for input in inputs {
            guard let absolute = paths.absolute(input) else { continue }
            if let top = repositoryRoot(above: absolute) {
                return ReportPaths(root: top, workingDirectory: workingDirectory)
            }
            break
        }
        return ReportPaths(root: fallback ?? workingDirectory, workingDirectory: workingDirectory)
    }

    /// The nearest folder at or above `path` (a folder) or its folder (a file) holding `.git` (a
    /// folder, or the file a linked worktree or submodule has); nil outside any work tree.
    static func repositoryRoot(above path: String) -> String? {
        let isFolder = StreamDiscovery.isFolder(path)
        var folder = isFolder ? path : PathString.parent(path)
        while !folder.isEmpty {
            if FileManager.default.fileExists(atPath: folder == "/" ? "/.git" : folder + "/.git") { return folder }
            if folder == "/" { return nil }
            folder = PathString.parent(folder)
        }
        return nil
    }

    /// `path` (a path, or a `file://` URL) made absolute and normalised; nil for a URL.
    func absolute(_ path: String) -> String? {
        var local = path
        if local.hasPrefix("file://") {
            local = String(local.dropFirst("file://".count))
        } else if let colon = local.firstIndex(of: ":"), local[..<colon].count > 1,
            local[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
            local[colon...].hasPrefix("://")
        {
            return nil  // http://, https://: not a file of the checkout
        }
        return Self.normalised(local.hasPrefix("/") ? local : workingDirectory + "/" + local)
    }

    /// How a report shows `path`: relative to the root when inside it (`.` for the root itself),
    /// absolute otherwise; URLs unchanged.
    package func display(_ path: String) -> String {
        guard !path.isEmpty, let absolute = absolute(path) else { return path }
        if absolute == root { return "." }
        let prefix = root == "/" ? "/" : root + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// The absolute path of a path as `display` shows it; nil for a URL.
    package func resolve(_ displayed: String) -> String? {
        if displayed.hasPrefix("/") { return displayed }
        if absolute(displayed) == nil { return nil }
        return displayed == "." ? root : Self.normalised(root + "/" + displayed)
    }

    /// `/`-separated absolute path with `.`, empty and `..` segments resolved (`..` above `/` is `/`).
    package static func normalised(_ absolute: String) -> String {
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Paths as a person opens them from the folder they ran the command in: relative to the
    /// working directory (absolute outside it). What the text report shows, where the machine
    /// formats stay relative to the repository root.
    package var fromWorkingDirectory: ReportPaths {
        ReportPaths(root: workingDirectory, workingDirectory: workingDirectory)
    }

    /// `report`, whose paths `other` made (relative to `other.root`), with its paths shown as
    /// this value shows them.
    package func relocating(_ report: CheckReport, from other: ReportPaths) -> CheckReport {
        map(report) { path in display(other.resolve(path) ?? path) }
    }

    /// The report with every path it holds shown by `display`: the input, the locations of its
    /// findings, its variants' resolved playlists and the keys of their bit-rate series. Messages and the URIs written in
    /// playlists are left as they are.
    package func apply(to report: CheckReport) -> CheckReport {
        map(report, display)
    }

    private func map(_ report: CheckReport, _ display: (String) -> String) -> CheckReport {
        var report = report
        report.input = display(report.input)
        report.diagnostics = report.diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            if let uri = diagnostic.location?.uri { diagnostic.location?.uri = display(uri) }
            if let uri = diagnostic.fix?.uri { diagnostic.fix?.uri = display(uri) }
            return diagnostic
        }
        report.variants = report.variants.map { variant in
            var variant = variant
            variant.playlist = display(variant.playlist)
            variant.peakCombination = variant.peakCombination?.map(display)
            return variant
        }
        report.multivariantPlaylists = report.multivariantPlaylists?.map(display)
        // The HTML report finds each variant's chart by its playlist path.
        report.bitrateSeries = Dictionary(
            report.bitrateSeries.map { (display($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        return report
    }
}
