import CSystem
import Foundation
import HLSCheck

/// Writes the rewritten stream without ever leaving a half-written one behind.
///
/// - `--output DIR`: every file is written to a temporary file in its folder and renamed into
///   place; unchanged files are hard-linked (copied across filesystems); the playlist players
///   open comes last.
/// - `--in-place`: the whole folder is staged next to itself (hard links, new files where
///   something changed) and then exchanged with the original in one atomic rename
///   (renameat2 RENAME_EXCHANGE): a reader — or a crash — sees the old stream or the new one.
struct StreamWriter {
    var layout: StreamLayout
    var destination: EmbedRequest.Destination

    typealias Put = (String, [UInt8]) throws -> Void

    /// Writes `master` (nil: unchanged) and what `produce` puts; returns the written input playlist.
    func write(master: [UInt8]?, produce: (Put) throws -> Void) throws(EmbedError) -> String {
        do {
            switch destination {
            case .folder(let folder):
                return try writeCopy(into: folder, master: master, produce: produce)
            case .inPlace:
                return try writeInPlace(master: master, produce: produce)
            }
        } catch let error as EmbedError {
            throw error
        } catch {
            throw EmbedError("\(error)")
        }
    }

    private func writeCopy(into folder: String, master: [UInt8]?, produce: (Put) throws -> Void) throws -> String {
        let target = URL(fileURLWithPath: folder).standardizedFileURL.path
        guard target != layout.root else {
            throw EmbedError("--output \(folder) is the stream's own folder: use --in-place to rewrite it")
        }
        var changed = Set<String>()
        try produce { path, bytes in
            let relative = try relativePath(path, to: layout.root)
            changed.insert(relative)
            try put(bytes, at: (target as NSString).appendingPathComponent(relative))
        }
        for file in layout.files where !changed.contains(file) && file != layout.rootPlaylist {
            try link(layout.absolute(file), to: (target as NSString).appendingPathComponent(file))
        }
        let output = (target as NSString).appendingPathComponent(layout.rootPlaylist)
        if let master { try put(master, at: output) } else { try link(layout.absolute(layout.rootPlaylist), to: output) }
        return output
    }

    private func writeInPlace(master: [UInt8]?, produce: (Put) throws -> Void) throws -> String {
        let root = layout.changeRoot
        guard root != "/" else { throw EmbedError("the stream's files have no common folder but /: use --output") }
        let parent = (root as NSString).deletingLastPathComponent
        let name = (root as NSString).lastPathComponent
        let staging = (parent as NSString).appendingPathComponent(".\(name).hlscheck-embed-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(atPath: staging) }
        // Stage the whole folder — not only the stream's files — so that the exchange keeps
        // everything else in it too.
        let everything = try FileManager.default.subpathsOfDirectory(atPath: root)
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        for relative in everything.sorted() {
            let source = (root as NSString).appendingPathComponent(relative)
            let copy = (staging as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            } else {
                try link(source, to: copy)
            }
        }
        try produce { path, bytes in
            try put(bytes, at: (staging as NSString).appendingPathComponent(try relativePath(path, to: root)))
        }
        let input = layout.absolute(layout.rootPlaylist)
        if let master { try put(master, at: (staging as NSString).appendingPathComponent(try relativePath(input, to: root))) }
        // The one atomic step; afterwards `staging` holds the old stream, removed by the defer.
        guard hls_exchange_paths(root, staging) == 0 else {
            throw EmbedError("cannot swap \(staging) with \(root): \(String(cString: strerror(errno))); nothing was changed — use --output")
        }
        return input
    }

    private func relativePath(_ path: String, to root: String) throws -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard absolute.hasPrefix(root + "/") else { throw EmbedError("\(path) is outside \(root)") }
        return String(absolute.dropFirst(root.count + 1))
    }

    /// A new file in place of `path`, never a half-written one.
    private func put(_ bytes: [UInt8], at path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try AtomicFile.write(bytes, to: path)
    }

    /// `to` becomes a hard link to `from` (a copy across filesystems), replacing it atomically.
    private func link(_ from: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = (folder as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).hlscheck-\(UUID().uuidString.prefix(8)).tmp")
        if Foundation.link(from, temporary) != 0 {
            try FileManager.default.copyItem(atPath: from, toPath: temporary)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw EmbedError("cannot write \(path): \(reason)")
        }
    }
}
