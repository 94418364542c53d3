import FoundationEssentials
import FileSystem
import HLSCheck
import HLSPlaylist
import HLSReporting
import StreamSources

/// The files a run writes (`--output FORMAT=PATH`, `--write-baseline`, the job summary), and
/// the guard that none of them replaces what the run reads: an input playlist, a segment, a
/// `--config` or `--baseline` file, or anything inside a folder being checked. A report over a
/// playlist would make the next check read JSON; one over a segment would destroy media.
///
/// Two spellings name one file when they resolve to the same path — symlinks resolved in the part
/// that exists, `./` and `..` lexically in the part that does not — or, for files that exist, to
/// the same device and inode (a hard link has no other common trait). What is refused is refused
/// before a byte is read or written; only the files a playlist names (segments, keys) are known
/// later, once the check has read the playlists (`CheckReport.readReportFiles`), and are refused
/// before any report is written.
struct ReportDestinations {
    /// One file the run writes.
    struct Destination {
        /// What names it, up to the path: `--output json=`, `--write-baseline `.
        var option: String
        var path: String
        /// `--output json=report.json`, as a message quotes it.
        var shown: String { option + TerminalText.escaped(path) }
        /// The file it replaces may be this run's own input (`--write-baseline` over `--baseline`:
        /// the baseline is read before it is rewritten, which is how it is updated).
        var mayReplace: String? = nil
    }

    var destinations: [Destination]
    var workingDirectory: String

    /// Where `path` leads: the real path of its longest existing prefix (symlinks and `..`
    /// resolved by the kernel) followed by the rest, normalised lexically.
    func location(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        if let real = RegularFile.realPath(absolute) { return real }
        var components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while !components.isEmpty {
            rest.insert(components.removeLast(), at: 0)
            if let real = RegularFile.realPath("/" + components.joined(separator: "/")) {
                return ReportPaths.normalised(real + "/" + rest.joined(separator: "/"))
            }
        }
        return ReportPaths.normalised(absolute)
    }

    /// Whether `a` and `b` name one file (see the type's comment).
    func sameFile(_ a: String, _ b: String) -> Bool {
        if let first = FileIdentity(path: a), let second = FileIdentity(path: b) { return first == second }
        return location(a) == location(b)
    }

    /// Whether `path` lies inside the folder `folder` (at any depth).
    func lies(_ path: String, inside folder: String) -> Bool {
        let inner = location(path), outer = location(folder)
        return inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }

    /// Why the run must not start, or nil: a destination that is an input, lies inside an input
    /// folder, is a file the run reads (`reads`: `--config`, `--baseline`, by what names them), or
    /// is another destination too.
    func refusal(inputs: [String], reads: [(option: String, path: String)]) -> String? {
        for (index, destination) in destinations.enumerated() {
            let shown = destination.shown
            for other in destinations[..<index] where sameFile(other.path, destination.path) {
                return
                    "\(shown) and \(other.shown) name the same file: one report would replace the other; give each its own path"
            }
            for input in inputs where !URIScheme.isRemote(input) {
                let local = LocalPath.path(of: input) ?? input
                if StreamDiscovery.isFolder(local) {
                    if lies(destination.path, inside: local) {
                        return
                            "\(shown) lies inside \(TerminalText.escaped(input)), a folder this run checks: nothing is written among the streams being checked (a report there would be read as one of their files); choose a path outside it"
                    }
                } else if sameFile(destination.path, local) {
                    return
                        "\(shown) would replace \(TerminalText.escaped(input)), a playlist this run checks; nothing was read or written: choose another path"
                }
            }
            for read in reads where read.path != destination.mayReplace && sameFile(destination.path, read.path) {
                return
                    "\(shown) would replace \(TerminalText.escaped(read.path)), the \(read.option) file this run reads; nothing was read or written: choose another path"
            }
        }
        return nil
    }

    /// The destinations that exist as files: the ones a check must say it read (they would be
    /// replaced by a report made from them).
    var existingFiles: Set<FileIdentity> {
        Set(destinations.compactMap { FileIdentity(path: $0.path) })
    }

    /// Why `destination` must not be written after the check: it is one of the files the checks
    /// read that are destinations (`CheckReport.readReportFiles`, by input), or nil.
    func refusal(_ destination: Destination, read: [(input: String, file: String)]) -> String? {
        guard !read.isEmpty, let identity = FileIdentity(path: destination.path) else { return nil }
        for (input, file) in read where FileIdentity(path: file) == identity {
            return
                "\(destination.shown) would replace \(TerminalText.escaped(file)), a file the check of \(TerminalText.escaped(input)) read; nothing was written there: choose another path"
        }
        return nil
    }
}
