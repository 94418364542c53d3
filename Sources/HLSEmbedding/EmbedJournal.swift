import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaFormats
import FileSystem

/// `.hlscheck-embed.journal`, beside the lock: written before a run creates anything, removed
/// after it has cleaned up. When the next run (holding the lock, so the writer is dead) finds
/// one, it removes what the interrupted run left: its temporary files, the new segments no
/// playlist references (the run died before its playlists were swapped in), the old segments no
/// playlist references any more (it died after). What a playlist references is never removed,
/// so whichever set the playlists point at stays whole.
struct EmbedJournal: Codable {
    static let name = ".hlscheck-embed.journal"

    var run: String
    var pid: Int32
    /// Every playlist of the stream at its destination (absolute paths).
    var playlists: [String]
    /// The segment files the run rewrites, and those the destination's old playlists referenced.
    var replaced: [String]
    /// The folders the run writes in (for its temporary files).
    var folders: [String]

    func write(in folder: Folder, progress: WriteProgress) throws(EmbedError) {
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(self))
        } catch {
            throw EmbedError("cannot encode the journal: \(error)")
        }
        try progress.step()
        let descriptor = openat(
            folder.descriptor, Self.name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw EmbedError("\(PathString.join(folder.path, Self.name)): cannot create it: \(lastError())")
        }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            throw EmbedError("\(PathString.join(folder.path, Self.name)): cannot write it: \(lastError())")
        }
        folder.sync()
    }

    static func remove(in folder: Folder, progress: WriteProgress) throws(EmbedError) {
        try progress.step()
        unlinkat(folder.descriptor, name, 0)
        folder.sync()
    }

    /// Cleans up after an interrupted run, if there was one; returns how many files it removed.
    static func recover(in folder: Folder) throws(EmbedError) -> Int {
        guard let bytes = try folder.read(name) else { return 0 }
        let progress = WriteProgress(hook: nil)
        // A journal cut short was being written when the run died: nothing else was done yet.
        guard let journal = try? JSONDecoder().decode(EmbedJournal.self, from: Data(bytes)) else {
            try remove(in: folder, progress: progress)
            return 0
        }
        var removed = 0
        var referenced = Set(journal.playlists.map(standardized))
        // A playlist a playlist references counts too (the media playlist of a variant the run
        // added is referenced only by the new multivariant playlist).
        var pending = journal.playlists
        var read = Set<String>()
        while let playlist = pending.popLast() {
            guard read.insert(standardized(playlist)).inserted,
                let text = FileManager.default.contents(atPath: playlist)
            else { continue }
            let base = PathString.parent(playlist)
            for uri in PlaylistReferences.uris(in: [UInt8](text)) where !uri.contains("://") {
                let path = standardized(uri.hasPrefix("/") ? uri : PathString.join(base, uri))
                referenced.insert(path)
                if path.lowercased().hasSuffix(".m3u8") || path.lowercased().hasSuffix(".m3u") { pending.append(path) }
            }
        }
        var candidates = Set(journal.replaced.map(standardized))
        var folders: [String: Folder] = [:]
        func open(_ path: String) -> Folder? {
            if let known = folders[path] { return known }
            let opened = try? Folder.open(path)
            folders[path] = opened
            return opened
        }
        for path in journal.replaced {
            let parent = PathString.parent(path)
            let name = PathString.lastComponent(path)
            for entry in open(parent)?.entries() ?? [] where SegmentName.isRenaming(entry, of: name) {
                candidates.insert(standardized(PathString.join(parent, entry)))
            }
        }
        // Another stream's playlists beside these files still list the old segments: they stay.
        let folderPaths = Set(candidates.map { PathString.parent($0) } + [standardized(folder.path)])
        referenced.formUnion(
            PlaylistReferences.listedByOtherPlaylists(in: folderPaths, excluding: read.union(candidates)).keys)
        for path in candidates.subtracting(referenced).sorted() {
            if let parent = open(PathString.parent(path)),
                try parent.removeFile(PathString.lastComponent(path), progress: progress)
            {
                removed += 1
            }
        }
        for path in Set(journal.folders + [folder.path]) {
            guard let parent = open(path) else { continue }
            for entry in parent.entries() where TemporaryName.belongs(entry, to: journal.run) {
                if try parent.removeFile(entry, progress: progress) { removed += 1 }
            }
        }
        for parent in folders.values.compactMap({ $0 }) { parent.sync() }
        try remove(in: folder, progress: progress)
        return removed
    }

    static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// The URIs a playlist refers to: every URI line and every URI="…" attribute, as the local names
/// they may denote (a remote URL as it is). Deliberately
/// simpler than the parser: recovery must see every reference, even in a playlist with errors.
enum PlaylistReferences {
    static func uris(in bytes: [UInt8]) -> [String] {
        var result: [String] = []
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let trimmed = line.trimmingWhiteSpace(newlines: false)
            if trimmed.isEmpty { continue }
            if !trimmed.hasPrefix("#") {
                result.append(trimmed)
                continue
            }
            var rest = Substring(trimmed)
            while let start = rest.firstRange(of: "URI=\"") {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                result.append(String(rest[..<end]))
                rest = rest[rest.index(after: end)...]
            }
        }
        // Every name a URI may denote (LocalFileName: decoded, and as written) counts as listed:
        // a file is kept when any of them is it.
        return result.flatMap { uri in
            uri.contains("://") && !uri.hasPrefix("file://") ? [uri] : LocalFileName(uri: uri).candidates
        }
    }
}

extension PlaylistReferences {
    /// The files (absolute, standardized) that playlists in `folders` other than `excluded` list,
    /// each with one playlist that lists it. A second stream beside this one — `index.m3u8` and
    /// `index-dvr.m3u8`, or two multivariant playlists with their own media playlists over one
    /// set of segments — is not embed's to rewrite, so the segments it lists are not embed's to
    /// remove. Playlists are found by name (`.m3u8`, `.m3u`) and read when regular files of at
    /// most `maximumBytes`; a FIFO or a link loop there is skipped, never waited on.
    static func listedByOtherPlaylists(
        in folders: Set<String>, excluding excluded: Set<String>, maximumBytes: Int = 16 << 20
    ) -> [String: String] {
        var listed: [String: String] = [:]
        for path in folders.sorted() {
            guard let folder = try? Folder.open(path) else { continue }
            for name in folder.entries().sorted() {
                let lowered = name.lowercased()
                guard lowered.hasSuffix(".m3u8") || lowered.hasSuffix(".m3u") else { continue }
                let playlist = EmbedJournal.standardized(PathString.join(path, name))
                guard !excluded.contains(playlist), let status = folder.status(name, followLinks: true),
                    Folder.isRegular(status),
                    Int(status.st_size) <= maximumBytes, let bytes = try? folder.read(name, followLinks: true)
                else { continue }
                for uri in uris(in: bytes) where !uri.contains("://") {
                    let file = EmbedJournal.standardized(uri.hasPrefix("/") ? uri : PathString.join(path, uri))
                    if listed[file] == nil { listed[file] = playlist }
                }
            }
        }
        return listed
    }
}
