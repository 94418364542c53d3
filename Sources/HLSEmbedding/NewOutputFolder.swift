import CHLSSystem
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

/// `--output DIR` where DIR does not exist yet: the whole copy is built in one staging folder
/// beside it (`.DIR.hlscheck-embed-<run>.tmp`) that nobody else knows of, flushed once, then
/// renamed to DIR with one `renameat2(RENAME_NOREPLACE)`. Until that rename DIR does not exist;
/// after it DIR is complete — so inside the staging folder every file is created straight under
/// its final name (no temporary file, no rename, no flush per file) and unchanged files are hard
/// links, which is what makes an embed about as cheap as a copy (docs/embed.md, "A new --output
/// folder").
///
/// The lock is `.DIR.hlscheck-embed.lock` beside the folder (the folder itself does not exist
/// yet); a run that holds it removes the staging folders of runs that died. A name is not proof
/// that a folder is ours (a user may keep `.DIR.hlscheck-embed-old.tmp`): each staging folder has
/// an owner file beside it (`.DIR.hlscheck-embed-<run>.owner`), created before the folder and
/// removed after it, and only a folder whose owner file holds `ownerText` is ever removed.
extension StreamWriter {
    static func stagingPrefix(_ name: String) -> String { ".\(name).hlscheck-embed-" }
    static let ownerText = Array(
        "hlscheck embed: the folder of this name ending in .tmp is an unfinished copy; removed by the next run\n".utf8)

    /// Writes the stream into the new folder `name` of `parent`; nil when a folder of that name
    /// appeared before the lock was taken (the caller then writes into it the usual way).
    func writeNewFolder(
        _ name: String, in parent: Folder, multivariant: [UInt8]?, targets: [String], additions: [Addition],
        dropped: Set<String>,
        produce: (Put) throws(EmbedError) -> Void
    ) throws(EmbedError) -> String? {
        let lock = try StreamLock.acquire(in: parent, named: ".\(name).hlscheck-embed.lock", wait: wait, report: report)
        defer { lock.release() }

        // Staging folders of runs that died (we hold the lock: their writers are gone), known by
        // their owner files; also when the folder exists now (a run killed after its rename).
        // The parent may hold thousands of other entries: each is told by its bytes, the prefix
        // worked out once.
        var removed = 0
        let prefix = Self.stagingPrefix(name)
        for entry in parent.entries()
        where entry.utf8.starts(with: prefix.utf8) && entry.utf8.reversed().starts(with: ".owner".utf8.reversed()) {
            // `<prefix><run>.owner`, the run in hex: not another output's (`--output a.hlscheck-embed-x`).
            let run = entry.dropFirst(prefix.count).dropLast(".owner".count)
            guard !run.isEmpty, run.allSatisfy(\.isHexDigit), let info = parent.status(entry), Folder.isRegular(info),
                Int(info.st_size) == Self.ownerText.count,
                (try? parent.read(entry)) == Self.ownerText
            else { continue }
            let leftover = String(entry.dropLast(".owner".count)) + ".tmp"
            if let info = parent.status(leftover), info.st_mode & S_IFMT == S_IFDIR {
                removed += 1 + parent.removeTree(leftover, progress: WriteProgress(hook: nil))
            }
            if unlinkat(parent.descriptor, entry, 0) == 0 { removed += 1 }
        }
        if removed > 0 {
            report("removed \(removed) leftover\(removed == 1 ? "" : "s") of an interrupted run in \(parent.path)")
        }
        guard parent.status(name) == nil else { return nil }
        let finalRoot = PathString.join(parent.path, name)

        let progress = WriteProgress(hook: hook)
        let run = String(UInt32.random(in: .min ... .max), radix: 16)
        let staging = Self.stagingPrefix(name) + run + ".tmp"
        let owner = Self.stagingPrefix(name) + run + ".owner"
        guard try parent.createNew(owner, bytes: Self.ownerText[...], like: nil, progress: progress) else {
            throw EmbedError(
                "\(finalRoot): cannot create a folder beside it to build the copy in: \(owner) exists — run again")
        }
        defer { unlinkat(parent.descriptor, owner, 0) }
        try progress.step()
        guard mkdirat(parent.descriptor, staging, 0o777) == 0 else {
            throw EmbedError("\(finalRoot): cannot create a folder beside it to build the copy in: \(lastError())")
        }
        do throws(EmbedError) {
            // Opened without following a link: nothing is ever written through a name swapped
            // for a link after mkdir.
            let root = try parent.subfolder(staging, create: false, followLinks: false)
            try fill(
                root, multivariant: multivariant, targets: targets,
                additions: additions, dropped: dropped, progress: progress, produce: produce)
            try progress.step()
            // A filesystem without RENAME_NOREPLACE for folders (its fallback, a hard link, does
            // not work for them): a plain rename, which could only replace an empty folder.
            var renamed = hls_rename_noreplace(parent.descriptor, staging, parent.descriptor, name) == 0
            if !renamed, errno == EPERM || errno == EINVAL || errno == ENOTSUP, parent.status(name) == nil {
                renamed = renameat(parent.descriptor, staging, parent.descriptor, name) == 0
            }
            guard renamed else {
                let reason =
                    errno == EEXIST || errno == ENOTEMPTY
                    ? "it appeared while embed was writing; embed does not replace it — run again" : lastError()
                throw EmbedError("\(finalRoot): cannot create it: \(reason)")
            }
        } catch {
            parent.removeTree(staging, progress: WriteProgress(hook: nil))
            throw error
        }
        parent.sync()
        return PathString.join(finalRoot, layout.rootPlaylist)
    }

    /// Every file of the copy in the staging folder `root`, flushed to disk.
    private func fill(
        _ root: Folder, multivariant: [UInt8]?, targets: [String], additions: [Addition], dropped: Set<String>,
        progress: WriteProgress, produce: (Put) throws(EmbedError) -> Void
    ) throws(EmbedError) {
        let tree = Tree(root: root.path, followLinks: false, create: true, opened: root)
        let source = Tree(root: layout.root, followLinks: true, create: false)
        let targetPlaylists = Set(targets.map(layout.relative))
        let targetSegments = layout.segments.filter { targetPlaylists.contains($0.playlist) }
        var createdFiles: [(folder: String, name: String)] = []

        func collision(_ file: String) -> EmbedError {
            // Two rewrites under one name (a fingerprint collision): never one over the other.
            EmbedError(
                "\(tree.absolute(file)) would be written twice with different content — run again with --in-place or another --output folder"
            )
        }
        func link(_ file: String) throws(EmbedError) {
            let (folder, name) = Tree.split(file)
            if try tree.folder(folder).linkNew(name, to: source.folder(folder), name, progress: progress) {
                createdFiles.append((folder, name))
            }
        }
        // One file at a time, in the order the files come (a name created before is taken):
        // creating files in one folder takes that folder's lock, so a second thread creating
        // beside the first only spins on it — more CPU, no file sooner.
        func create(_ file: String, _ bytes: [UInt8], like: stat?) throws(EmbedError) {
            let (folder, name) = Tree.split(file)
            let target = try tree.folder(folder)
            if try target.createNew(name, bytes: bytes[...], like: like, progress: progress) {
                createdFiles.append((folder, name))
            } else if try target.read(name) != bytes {
                throw collision(file)
            }
        }

        // The rewritten segments under their new names; unchanged ones linked.
        var newURIs: [String: [Int: String]] = [:]
        var movedFiles = Set<String>()
        var playlists: [String: String] = [:]  // by URI: each worked out once, not once per segment
        try produce { (rewritten: RewrittenFile) throws(EmbedError) in
            let bytes = rewritten.bytes
            let playlist = playlists[rewritten.playlistURI] ?? layout.relative(rewritten.playlistURI)
            playlists[rewritten.playlistURI] = playlist
            let file = layout.relative(URIResolver.resolve(rewritten.uri, against: rewritten.playlistURI))
            let (folder, name) = Tree.split(file)
            let sourceFolder = try source.folder(folder)
            let (original, unchanged) = try sourceFolder.status(name, holding: bytes)
            if unchanged {
                try link(file)
                return
            }
            // The name and the URI from one fingerprint: the bytes are hashed once, if at all.
            if keepNames && !rewritten.rangesMove {
                // Nobody sees this folder yet: the new bytes simply take the segment's own name.
                try create(file, bytes, like: original)
                return
            }
            // A file whose byte ranges move gets a new name under --keep-names too, as in any
            // other folder (ByteRangedFile): one rule, whoever may see the folder.
            if rewritten.rangesMove { movedFiles.insert(file) }
            let fingerprint = rewritten.fingerprint ?? SegmentName.fingerprint(bytes)
            let newName = SegmentName.renamed(name, fingerprint: fingerprint)
            try create(Tree.join(folder, newName), bytes, like: original)
            // A URI that is the file's bare name (the playlist beside its segments) is renamed once.
            newURIs[playlist, default: [:]].merge(
                rewritten.lines { $0 == name ? newName : SegmentName.renamed($0, fingerprint: fingerprint) }
            ) { $1 }
        }
        // New files (`--add-audio-only`): segments, then their playlists.
        for addition in additions.filter({ !$0.isPlaylist }) + additions.filter(\.isPlaylist) {
            try create(addition.file, addition.bytes, like: nil)
        }
        // Every other file of the stream, as it is (a segment a target shares with a playlist
        // embed leaves alone included).
        for file in try filesKept(
            targetPlaylists, targetSegments: targetSegments, movedFiles: movedFiles, additions: additions,
            dropped: dropped, from: source)
        {
            try link(file)
        }
        // The playlists embed rewrites (in a folder nobody sees yet, the order does not matter).
        for (playlist, bytes) in try newPlaylists(
            multivariant: multivariant, targets: targetPlaylists, newURIs: newURIs, source: source)
        {
            guard let bytes else {
                try link(playlist)
                continue
            }
            let (folder, name) = Tree.split(playlist)
            try create(playlist, bytes, like: (try? source.folder(folder))?.status(name, followLinks: true))
        }

        try flush(tree, createdFiles, progress: progress)
    }

    /// One flush for the whole copy before it gets its name: syncfs(2) where there is one, else
    /// every file created and every folder on its own.
    private func flush(_ tree: Tree, _ createdFiles: [(folder: String, name: String)], progress: WriteProgress)
        throws(EmbedError)
    {
        let top = try tree.folder("")
        try progress.step()
        guard hls_sync_filesystem(top.descriptor) != 0 else { return }
        for (folder, name) in createdFiles {
            let file = openat(try tree.folder(folder).descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard file >= 0 else {
                throw EmbedError(
                    "\(tree.absolute(Tree.join(folder, name))): cannot open it to flush it: \(lastError())")
            }
            defer { close(file) }
            guard fsync(file) == 0 else {
                throw EmbedError("\(tree.absolute(Tree.join(folder, name))): cannot flush it to disk: \(lastError())")
            }
        }
        tree.syncAll()
    }
}
