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
import HLSCheck
import MediaInspection

/// Writes the rewritten stream so that every player, at every moment — and the folder after a
/// crash or a kill at any point — sees the old stream or the new one, each whole.
///
/// One mechanism for `--output` and `--in-place` (docs/embed.md, "Nothing half-written"):
/// 1. lock the destination (`.hlscheck-embed.lock`) and clean what an interrupted run left;
/// 2. write a journal of what this run will create and replace;
/// 3. write each rewritten segment under a new name (`seg0.embed-1a2b3c4d.ts`): a temporary file
///    created with O_EXCL, flushed, given the old file's mode and owner, renamed into place only
///    if nothing has that name — the old segments stay as they are;
/// 4. replace each changed media playlist, then the input playlist last, each with one rename
///    of a temporary file: the old playlist references only old segments, the new one only new;
/// 5. remove the old segments no playlist references any more, then the journal and the lock.
/// No folder is ever moved, created in place of another or written through a link; no existing
/// file is ever opened for writing; files the rewrite does not change are not touched.
struct StreamWriter {
    var layout: StreamLayout
    var destination: EmbedRequest.Destination
    var wait: Bool
    var report: @Sendable (String) -> Void
    var hook: (@Sendable (Int) -> Void)?
    /// `--keep-names`: a rewritten segment replaces the file of its own name (a temporary file
    /// renamed over it: each reader gets the old file or the new one, whole) instead of getting
    /// a new name; the playlists' URI lines stay as they are.
    var keepNames = false
    /// Playlists (relative to the layout's root) whose new bytes the caller made, with no segment
    /// of theirs rewritten (`hlscheck fix`): replaced in step 4 like the rewritten ones.
    var editedPlaylists: [String: [UInt8]] = [:]

    /// One rewritten file: a segment, or a file whose byte ranges are segments.
    typealias Put = (RewrittenFile) throws(EmbedError) -> Void

    /// A file the stream gains (`embed --add-audio-only`): a path relative to the layout's root
    /// and its bytes, created under a name nothing has (a name holding the same bytes is reused,
    /// one holding other bytes refused) — playlists too, so that until the input playlist is
    /// swapped in nothing the stream references has changed.
    struct Addition {
        var file: String
        var bytes: [UInt8]
        var isPlaylist: Bool
    }

    /// The analysis every writer starts from: the stream loaded and measured as `check` does it;
    /// an unreadable input is the run's error.
    static func analyse(
        _ input: String, configuration: CheckConfiguration, keeping keeper: SegmentBytesKeeper? = nil
    ) async throws(EmbedError) -> StreamAnalysis {
        var checker = Checker(configuration: configuration)
        checker.segmentBytesKeeper = keeper
        do {
            return try await checker.analyse(input)
        } catch {
            throw EmbedError(error.description)
        }
    }

    /// `--in-place`: locks the input playlist's folder before anything reads the stream, and
    /// cleans what an interrupted run left.
    static func lockInPlace(_ input: String, wait: Bool, report: @Sendable (String) -> Void) throws(EmbedError)
        -> StreamLock?
    {
        guard !input.contains("://") else { return nil }  // refused later: embed rewrites local streams
        let folder = try Folder.open(PathString.parent(URL(fileURLWithPath: input).standardizedFileURL.path))
        let lock = try StreamLock.acquire(in: folder, wait: wait, report: report)
        try cleanUp(folder, report: report)
        return lock
    }

    private static func cleanUp(_ folder: Folder, report: @Sendable (String) -> Void) throws(EmbedError) {
        let removed = try EmbedJournal.recover(in: folder)
        if removed > 0 {
            report("removed \(removed) leftover\(removed == 1 ? "" : "s") of an interrupted run in \(folder.path)")
        }
    }

    /// In place: the lock files an interrupted run left beside the stream's other playlists
    /// (`b/.hlscheck-embed.lock`, taken for a media playlist in its own folder) are removed.
    /// A run killed after its last rename leaves them, and the next run may have nothing to write
    /// there, so it would never take (and so never remove) them. A lock file is removed only when
    /// this run can take its lock — its holder is dead, since the kernel lets go of a dead
    /// process's flock — by taking and releasing it, so that a live run's lock stays, and a folder
    /// without a lock file gets none.
    static func removeInterruptedLocks(
        _ layout: StreamLayout, held: StreamLock, report: @Sendable (String) -> Void
    ) throws(EmbedError) {
        let tree = Tree(root: layout.root, followLinks: true, create: false)
        var seen: Set<[UInt64]> = [identity(held.folder)]
        for playlist in layout.playlists.sorted() {
            let folder = try tree.folder(PathString.parent(playlist))
            guard seen.insert(identity(folder)).inserted else { continue }
            var status = stat()
            guard fstatat(folder.descriptor, StreamLock.name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            // Held by a live run: its lock, not a leftover.
            guard let lock = try? StreamLock.acquire(in: folder, wait: false, report: report) else { continue }
            lock.release()
            report("removed the lock file an interrupted run left in \(folder.path)")
        }
    }

    /// Writes the stream: `multivariant` (nil: unchanged) and the segments `produce` puts, in the
    /// order the targets list them. Returns the written input playlist.
    ///
    /// `additions` are written after the rewritten segments and before the input playlist (their
    /// segments first, their playlists after); `dropped` files (relative to the layout's root)
    /// stop being part of the stream: not copied, and removed at the end when nothing references them.
    func write(
        multivariant: [UInt8]?, targets: [String], lock: StreamLock?, additions: [Addition] = [],
        dropped: Set<String> = [],
        produce: (Put) throws(EmbedError) -> Void
    ) throws(EmbedError) -> String {
        let inPlace = destination == .inPlace
        let root: String
        let held: StreamLock
        switch try place(
            multivariant: multivariant, targets: targets, lock: lock, additions: additions, dropped: dropped,
            produce: produce)
        {
        case .written(let playlist): return playlist
        case .held(let folder, let lock): (root, held) = (folder, lock)
        }
        defer { held.release() }

        let progress = WriteProgress(hook: hook)
        let run = String(UInt32.random(in: .min ... .max), radix: 16)
        let tree = Tree(root: root, followLinks: inPlace, create: !inPlace)
        let source = Tree(root: layout.root, followLinks: true, create: false)
        let targetPlaylists = Set(targets.map(layout.relative))
        let targetSegments = layout.segments.filter { targetPlaylists.contains($0.playlist) }

        let sharedLocks = inPlace ? try lockSharedFolders(targetPlaylists, tree: tree, held: held) : []
        defer { sharedLocks.forEach { $0.release() } }

        // What the destination's playlists reference now: removed at the end unless still used.
        var replaced = Set(targetSegments.map(\.file)).union(dropped).union(additions.map(\.file))
        if !inPlace { replaced.formUnion(try referencedByEarlierCopy(targetPlaylists, tree: tree)) }
        try refuseLinkedPlaylists(targetPlaylists, tree: tree)
        let journal = EmbedJournal(
            run: run, pid: getpid(), playlists: layout.playlists.map(tree.absolute),
            replaced: replaced.sorted().map(tree.absolute),
            folders: Set((layout.files + additions.map(\.file)).map { PathString.parent($0) }).sorted().map(
                tree.absolute))
        try journal.write(in: held.folder, progress: progress)

        var created: [String] = []
        var committed = false
        do throws(EmbedError) {
            let (newURIs, movedFiles) = try writeNewSegments(
                produce, tree: tree, source: source, run: run, progress: progress, created: &created)

            // New files: segments under names nothing else has, then their playlists.
            for addition in additions.filter({ !$0.isPlaylist }) + additions.filter(\.isPlaylist) {
                if try add(addition, to: tree, run: run, progress: progress) { created.append(addition.file) }
            }
            if !inPlace {
                try copyUnchanged(
                    targetPlaylists, targetSegments: targetSegments, movedFiles: movedFiles, additions: additions,
                    dropped: dropped, to: tree, from: source, run: run, progress: progress)
            }
            try replacePlaylists(
                multivariant: multivariant, targets: targetPlaylists, newURIs: newURIs, tree: tree, source: source,
                run: run,
                progress: progress, committed: &committed)
            try removeUnreferenced(
                replaced, dropped: dropped, additions: additions, newURIs: newURIs, movedFiles: movedFiles, tree: tree,
                progress: progress)
            tree.syncAll()
            try EmbedJournal.remove(in: held.folder, progress: progress)
        } catch {
            guard !committed else {
                throw EmbedError(
                    "\(error.description); the stream is whole (each playlist old or new) — run the command again to finish"
                )
            }
            // Nothing references what this run created: take it back.
            for file in created {
                let (folder, name) = Tree.split(file)
                _ = try? tree.folder(folder, create: false).removeFile(name, progress: WriteProgress(hook: nil))
            }
            try? EmbedJournal.remove(in: held.folder, progress: WriteProgress(hook: nil))
            throw error
        }
        return tree.absolute(layout.rootPlaylist)
    }

    /// Where `write` writes: a new `--output` folder, written whole already (its input playlist),
    /// or a folder it holds the lock of — the input's in place, an existing `--output` folder.
    private enum Place {
        case written(String)
        case held(root: String, lock: StreamLock)
    }

    /// The destination locked, and interrupted runs' leftovers cleaned; a new `--output` folder
    /// is written whole here (NewOutputFolder).
    private func place(
        multivariant: [UInt8]?, targets: [String], lock: StreamLock?, additions: [Addition], dropped: Set<String>,
        produce: (Put) throws(EmbedError) -> Void
    ) throws(EmbedError) -> Place {
        switch destination {
        case .inPlace:
            guard let lock else { throw EmbedError("\(layout.root): the stream is not locked") }
            return .held(root: layout.root, lock: lock)
        case .folder(let folder):
            let output = try resolveOutput(folder)
            if let name = output.missing.last {
                // A new folder: built whole beside its name and renamed into place once. The
                // names beside it (`.NAME.hlscheck-embed-<run>.owner`, the longest) must fit
                // NAME_MAX too: say so before anything is created, not ENAMETOOLONG on a name
                // the user never chose.
                let added = ".\(name).hlscheck-embed-ffffffff.owner".utf8.count - name.utf8.count
                if name.utf8.count + added > Self.longestName {
                    throw EmbedError(
                        "--output \(folder): the folder name is \(name.utf8.count) bytes, and embed builds the copy beside it under names \(added) bytes longer (.NAME.hlscheck-embed-<run>.tmp), over the \(Self.longestName) bytes a file name may have: choose a name of at most \(Self.longestName - added) bytes"
                    )
                }
                var parent = try Folder.open(output.base)
                for ancestor in output.missing.dropLast() {
                    parent = try parent.subfolder(ancestor, create: true, followLinks: false)
                }
                if let written = try writeNewFolder(
                    name, in: parent, multivariant: multivariant, targets: targets, additions: additions,
                    dropped: dropped,
                    produce: produce)
                {
                    return .written(written)
                }
            }
            let root = try outputRoot(folder)
            let opened = try Folder.open(root)
            let held = try StreamLock.acquire(in: opened, wait: wait, report: report)
            try Self.cleanUp(opened, report: report)
            return .held(root: root, lock: held)
        }
    }

    /// In place, a media playlist in another folder (`../audio/index.m3u8`) may belong to
    /// another stream too: its folder is locked as well, without waiting (two runs waiting for
    /// each other's folders would wait forever).
    private func lockSharedFolders(_ targetPlaylists: Set<String>, tree: Tree, held: StreamLock) throws(EmbedError)
        -> [StreamLock]
    {
        var locks: [StreamLock] = []
        var locked: Set<[UInt64]> = [Self.identity(held.folder)]
        for playlist in targetPlaylists.union(editedPlaylists.keys).sorted() {
            let folder = try tree.folder(PathString.parent(playlist))
            guard locked.insert(Self.identity(folder)).inserted else { continue }
            do {
                locks.append(try StreamLock.acquire(in: folder, wait: false, report: report))
            } catch {
                locks.forEach { $0.release() }
                throw EmbedError(
                    "\(error.description.replacing(" — run again when it has finished, or add --wait", with: "")) — \(tree.absolute(playlist)) belongs to this stream too; run again when that run has finished"
                )
            }
        }
        return locks
    }

    /// The files a copy written before (say, with another poster) references from the target
    /// playlists, inside the folder only (relative to `tree`).
    private func referencedByEarlierCopy(_ targetPlaylists: Set<String>, tree: Tree) throws(EmbedError) -> Set<String> {
        let root = tree.root
        var files = Set<String>()
        for playlist in targetPlaylists.sorted() {
            guard let old = try tree.read(playlist) else { continue }
            let base = PathString.parent(tree.absolute(playlist))
            for uri in PlaylistReferences.uris(in: old) where !uri.contains("://") && !uri.hasPrefix("/") {
                let path = EmbedJournal.standardized(PathString.join(base, uri))
                if path.hasPrefix(root == "/" ? "/" : root + "/") {
                    files.insert(String(path.dropFirst(root == "/" ? 1 : root.count + 1)))
                }
            }
        }
        return files
    }

    /// Playlists are replaced, never written through: a link is refused before anything is created.
    private func refuseLinkedPlaylists(_ targetPlaylists: Set<String>, tree: Tree) throws(EmbedError) {
        for playlist in targetPlaylists.union([layout.rootPlaylist]).union(editedPlaylists.keys).sorted() {
            let (folder, name) = Tree.split(playlist)
            if let existing = (try? tree.folder(folder, create: false))?.status(name), !Folder.isRegular(existing) {
                throw EmbedError(
                    "\(tree.absolute(playlist)) is \(Folder.isLink(existing) ? "a symbolic link" : "not a regular file"); embed does not replace it — point the command at the real file, or use --output"
                )
            }
        }
    }

    /// The copy (`--output`): every other file of the stream, as it is.
    private func copyUnchanged(
        _ targetPlaylists: Set<String>, targetSegments: [StreamLayout.SegmentReference], movedFiles: Set<String>,
        additions: [Addition], dropped: Set<String>, to tree: Tree, from source: Tree, run: String,
        progress: WriteProgress
    ) throws(EmbedError) {
        for file in try filesKept(
            targetPlaylists, targetSegments: targetSegments, movedFiles: movedFiles, additions: additions,
            dropped: dropped, from: source)
        {
            try tree.copy(file, from: source, run: run, progress: progress)
        }
    }

    /// The files of the stream a copy takes as they are: all but those embed writes — a segment
    /// a target shares with a playlist embed leaves alone included (under --keep-names a shared
    /// segment's name holds its new bytes already). A playlist among them is first shown to be
    /// the one the analysis read.
    func filesKept(
        _ targetPlaylists: Set<String>, targetSegments: [StreamLayout.SegmentReference], movedFiles: Set<String>,
        additions: [Addition], dropped: Set<String>, from source: Tree
    ) throws(EmbedError) -> [String] {
        let sharedElsewhere =
            keepNames ? [] : layout.segments.filter { !targetPlaylists.contains($0.playlist) }.map(\.file)
        let written = targetPlaylists.union([layout.rootPlaylist]).union(dropped).union(additions.map(\.file))
            .union(editedPlaylists.keys)
            .union(
                Set(targetSegments.map(\.file)).subtracting(sharedElsewhere).subtracting(
                    layout.otherFiles.subtracting(movedFiles)))
        let kept = layout.files.filter { !written.contains($0) }
        for file in kept where layout.digests[file] != nil {
            _ = try layout.unchangedPlaylist(file) { () throws(EmbedError) in try source.read(file, followLinks: true) }
        }
        return kept
    }

    /// The playlists: the media playlists, then the input last — each computed first from the
    /// bytes the analysis read (all of them still there, or none is replaced). `committed`
    /// becomes true with the first one replaced: from then on a failure leaves the stream whole
    /// (each playlist old or new) and is not taken back.
    private func replacePlaylists(
        multivariant: [UInt8]?, targets: Set<String>, newURIs: [String: [Int: String]], tree: Tree, source: Tree,
        run: String, progress: WriteProgress, committed: inout Bool
    ) throws(EmbedError) {
        let inPlace = destination == .inPlace
        let playlists = try newPlaylists(multivariant: multivariant, targets: targets, newURIs: newURIs, source: source)
        for (playlist, bytes) in playlists {
            guard let bytes else {
                if !inPlace { try tree.copy(playlist, from: source, run: run, progress: progress) }
                continue
            }
            if try tree.read(playlist) == bytes { continue }
            // Tree.replace throws only before its rename: until one playlist is replaced,
            // a failure (a full disk writing the first one) still takes everything back.
            try tree.replace(playlist, with: bytes, like: source, owner: inPlace, run: run, progress: progress)
            committed = true
        }
    }

    /// What no playlist references any more, of what the destination's playlists referenced
    /// before (`replaced`), removed, unless a playlist of another stream lists it.
    private func removeUnreferenced(
        _ replaced: Set<String>, dropped: Set<String>, additions: [Addition], newURIs: [String: [Int: String]],
        movedFiles: Set<String>, tree: Tree, progress: WriteProgress
    ) throws(EmbedError) {
        var referenced = Set(layout.playlists).union(layout.otherFiles.subtracting(movedFiles))
        for segment in layout.segments where !dropped.contains(segment.file) {
            if let uri = newURIs[segment.playlist]?[segment.line] {
                referenced.insert(Tree.join(PathString.parent(segment.file), PathString.lastComponent(uri)))
            } else {
                referenced.insert(segment.file)
            }
        }
        referenced.subtract(dropped)
        referenced.formUnion(additions.map(\.file))
        let unreferenced = replaced.subtracting(referenced)
        let keptForOthers = Self.listedByOtherPlaylists(
            unreferenced, tree: tree,
            ours: Set(layout.playlists + additions.filter(\.isPlaylist).map(\.file)).union(replaced), report: report
        )
        for file in unreferenced.subtracting(keptForOthers).sorted() {
            let (folder, name) = Tree.split(file)
            if let parent = try? tree.folder(folder, create: false) {
                try parent.removeFile(name, progress: progress)
            }
        }
    }

    /// New segments under new names; unchanged ones stay (or are linked into the copy).
    /// First every new segment as a temporary file, then one flush for all of them (not
    /// one fsync per file), then each gets its name: no name ever points at bytes that
    /// are not on disk yet.
    ///
    /// Returns each target playlist's new lines (by 1-based line) and the files whose byte
    /// ranges moved; `created` gets every name this run made, for the caller to take back.
    private func writeNewSegments(
        _ produce: (Put) throws(EmbedError) -> Void, tree: Tree, source: Tree, run: String, progress: WriteProgress,
        created: inout [String]
    ) throws(EmbedError) -> (newURIs: [String: [Int: String]], movedFiles: Set<String>) {
        let inPlace = destination == .inPlace
        var newURIs: [String: [Int: String]] = [:]
        var renamedFolders = Set<String>()
        // Files whose byte ranges moved: every line naming them (EXT-X-MAP included) now
        // names the new file, so the old one is not an init section that stays.
        var movedFiles = Set<String>()
        var pending: [PendingSegment] = []
        // A segment file several target playlists list (an audio-only variant and an audio
        // rendition with the same segments) gets one temporary and one new name; the other
        // playlists' lines wait here for it.
        var pendingFiles: [String: String] = [:]
        var sharedUses: [String: [PendingSegment]] = [:]
        do throws(EmbedError) {
            try produce { (rewritten: RewrittenFile) throws(EmbedError) in
                let bytes = rewritten.bytes
                let playlist = layout.relative(rewritten.playlistURI)
                let file = layout.relative(URIResolver.resolve(rewritten.uri, against: rewritten.playlistURI))
                let (folder, name) = Tree.split(file)
                let sourceFolder = try source.folder(folder)
                let (original, unchanged) = try sourceFolder.status(name, holding: bytes)
                if unchanged {
                    if !inPlace { try tree.copy(file, from: source, run: run, progress: progress) }
                    return
                }
                // Under --keep-names over its own name, unless its byte ranges move with it
                // (ByteRangedFile: the old playlist's ranges fit the old file only).
                let overOwnName = keepNames && !rewritten.rangesMove
                let fingerprint = overOwnName ? "" : rewritten.fingerprint ?? SegmentName.fingerprint(bytes)
                let newName = overOwnName ? name : SegmentName.renamed(name, fingerprint: fingerprint)
                if rewritten.rangesMove { movedFiles.insert(file) }
                let target = try tree.folder(folder)
                let use = PendingSegment(
                    folder: folder, temporary: "", newName: newName, overOwnName: overOwnName, playlist: playlist,
                    edits: rewritten.lines {
                        overOwnName ? $0 : $0 == name ? newName : SegmentName.renamed($0, fingerprint: fingerprint)
                    })
                if let earlier = pendingFiles[Tree.join(folder, newName)] {
                    guard try target.read(earlier) == bytes else {
                        throw EmbedError(
                            "\(tree.absolute(file)): two playlists list this segment and its rewritten bytes differ between them under one new name (\(newName)); embed cannot write both — give each playlist its own segment files"
                        )
                    }
                    sharedUses[Tree.join(folder, newName), default: []].append(use)
                    return
                }
                let temporary = try target.temporary(
                    for: newName, run: run, bytes: bytes[...], like: original, owner: inPlace,
                    flush: false, progress: progress)
                pendingFiles[Tree.join(folder, newName)] = temporary
                var first = use
                first.temporary = temporary
                pending.append(first)
            }
            for (folder, entries) in Dictionary(grouping: pending, by: \.folder).sorted(by: { $0.key < $1.key }) {
                try tree.folder(folder).flushAll(entries.map(\.temporary))
            }
            while !pending.isEmpty {
                let next = pending.removeFirst()
                let target = try tree.folder(next.folder)
                if next.overOwnName {
                    // Over the segment of the same name: rename(2) replaces it whole.
                    try target.replace(next.newName, with: next.temporary, progress: progress)
                } else if try target.createExclusively(next.newName, with: next.temporary, progress: progress) {
                    created.append(Tree.join(next.folder, next.newName))
                } else {
                    // Written before (the same poster again): the same bytes may stay, others may not.
                    let same = try target.read(next.newName) == target.read(next.temporary)
                    _ = try? target.removeFile(next.temporary, progress: WriteProgress(hook: nil))
                    guard same else {
                        throw EmbedError(
                            "\(PathString.join(target.path, next.newName)) exists with other content; embed does not overwrite it — move it away and run again"
                        )
                    }
                }
                renamedFolders.insert(next.folder)
                for use in [next] + sharedUses[Tree.join(next.folder, next.newName), default: []] {
                    newURIs[use.playlist, default: [:]].merge(use.edits) { $1 }
                }
            }
        } catch {
            // Temporaries that never got their name.
            for leftover in pending {
                _ = try? tree.folder(leftover.folder, create: false).removeFile(
                    leftover.temporary, progress: WriteProgress(hook: nil))
            }
            throw error
        }
        for folder in renamedFolders { try tree.folder(folder).sync() }
        return (newURIs, movedFiles)
    }

    /// `--in-place` on a media playlist without EXT-X-ENDLIST (RFC 8216 §4.3.3.4: more segments
    /// may come): its encoder rewrites it from its own list, putting back the old segment names
    /// that step 5 removes, so the stream would break at the encoder's next update.
    static func stillWritten(_ playlist: String) -> EmbedError {
        EmbedError(
            "\(playlist) has no EXT-X-ENDLIST: a live stream whose encoder may still be writing it, and would write back the old segment names embed --in-place removes; embed it in place once it has ended, or write a copy with --output"
        )
    }

    /// The playlists step 4 writes, media playlists first and the input last: each one's new
    /// bytes (nil: unchanged), made from the bytes the analysis read — refused when another
    /// program changed any of them meanwhile (StreamLayout.unchangedPlaylist).
    func newPlaylists(
        multivariant: [UInt8]?, targets: Set<String>, newURIs: [String: [Int: String]], source: Tree
    ) throws(EmbedError) -> [(playlist: String, bytes: [UInt8]?)] {
        var result: [(playlist: String, bytes: [UInt8]?)] = []
        for playlist in layout.playlists.reversed()
        where targets.contains(playlist) || playlist == layout.rootPlaylist || editedPlaylists[playlist] != nil {
            let current = try layout.unchangedPlaylist(playlist) { () throws(EmbedError) in
                try source.read(playlist, followLinks: true)
            }
            var bytes: [UInt8]?
            if playlist == layout.rootPlaylist, let multivariant { bytes = multivariant }
            if let edited = editedPlaylists[playlist] { bytes = edited }
            if let edits = newURIs[playlist] { bytes = PlaylistLines.replacing(edits, in: current) }
            result.append((playlist, bytes))
        }
        return result
    }

    /// Those of `files` (relative to `tree`) that a playlist beside them or in the stream's root
    /// folder lists which is not one of `ours`: another stream's, whose segments stay. Says so.
    private static func listedByOtherPlaylists(
        _ files: Set<String>, tree: Tree, ours: Set<String>, report: @Sendable (String) -> Void
    ) -> Set<String> {
        guard !files.isEmpty else { return [] }
        let absolute = { (file: String) in EmbedJournal.standardized(tree.absolute(file)) }
        let folders = Set(files.map { PathString.parent(absolute($0)) } + [EmbedJournal.standardized(tree.root)])
        let listed = PlaylistReferences.listedByOtherPlaylists(in: folders, excluding: Set(ours.map(absolute)))
        let kept = files.filter { listed[absolute($0)] != nil }
        if let example = kept.sorted().first, let playlist = listed[absolute(example)] {
            report(
                "kept \(kept.count) old segment\(kept.count == 1 ? "" : "s") (\(tree.absolute(example))\(kept.count == 1 ? "" : ", …")) that \(playlist) still lists: it is not part of this stream; embed it too, or remove them when nothing uses them"
            )
        }
        return kept
    }

    /// Creates `addition` under its name; false when a file of that name holds its bytes already.
    private func add(_ addition: Addition, to tree: Tree, run: String, progress: WriteProgress) throws(EmbedError)
        -> Bool
    {
        let (folder, name) = Tree.split(addition.file)
        let target = try tree.folder(folder, create: true)
        if target.status(name) != nil {
            if try target.read(name) == addition.bytes { return false }
        }
        let temporary = try target.temporary(
            for: name, run: run, bytes: addition.bytes[...], like: nil, owner: false, progress: progress)
        guard try target.createExclusively(name, with: temporary, progress: progress) else {
            _ = try? target.removeFile(temporary, progress: WriteProgress(hook: nil))
            throw EmbedError(
                "\(PathString.join(target.path, name)) exists with other content; embed does not overwrite it — move it away and run again"
            )
        }
        target.sync()
        return true
    }

    /// The `--output` folder, resolved (symbolic links included) and created; refused when it is,
    /// contains or lies inside a folder of the input stream.
    private func outputRoot(_ requested: String) throws(EmbedError) -> String {
        let output = try resolveOutput(requested)
        var folder = try Folder.open(output.base)
        for name in output.missing {
            folder = try folder.subfolder(name, create: true, followLinks: false)
        }
        return output.target
    }

    /// The `--output` folder resolved (symbolic links included): the part that exists, the names
    /// below it still missing, the whole path; refused when it is, contains or lies inside a
    /// folder of the input stream.
    private func resolveOutput(_ requested: String) throws(EmbedError) -> (
        base: String, missing: [String], target: String
    ) {
        var existing = Self.followingLinks(URL(fileURLWithPath: requested).standardizedFileURL.path)
        var missing: [String] = []
        while Self.resolved(existing) == nil, existing != "/" {
            missing.insert(PathString.lastComponent(existing), at: 0)
            existing = PathString.parent(existing)
        }
        guard let base = Self.resolved(existing) else {
            throw EmbedError("--output \(requested): cannot resolve the folder")
        }
        var info = stat()
        if missing.isEmpty, stat(base, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw EmbedError(
                "--output \(requested) is \(info.st_mode & S_IFMT == S_IFREG ? "a file" : "a device, FIFO or socket"), not a folder: name a new folder (or one that holds an earlier copy) to write the copy in"
            )
        }
        let target = missing.reduce(base) { PathString.join($0, $1) }
        // Each folder resolved once (realpath(3) costs a readlink per component), not once per file.
        // The stream's few folders told from its relative paths (the part before the last '/'),
        // then made absolute, rather than each of thousands of files made absolute first.
        let relativeFolders = Set(
            layout.files.map { file in file.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(file[..<$0]) } ?? "" })
        let inputFolders = Set(relativeFolders.map { Self.resolved(layout.absolute($0)) ?? layout.absolute($0) })
        for folder in inputFolders.sorted() {
            let relation: String? =
                target == folder
                ? "is the folder"
                : target.hasPrefix(folder + "/") || folder == "/"
                    ? "is inside the folder"
                    : folder.hasPrefix(target == "/" ? "/" : target + "/")
                        ? "contains the folder"
                        : nil
            if let relation {
                throw EmbedError(
                    "--output \(requested) \(relation) \(folder) of the input stream (after following links): write the copy somewhere else, or use --in-place to rewrite the stream"
                )
            }
        }
        return (base, missing, target)
    }

    /// `path` with every symbolic link in it followed, also where it points at nothing yet (a
    /// link to a folder to be created): realpath(3) for the part that exists.
    static func followingLinks(_ path: String) -> String {
        var pending = path.split(separator: "/").map(String.init)
        var result = "/"
        var hops = 0
        while !pending.isEmpty {
            let component = pending.removeFirst()
            let candidate = PathString.join(result, component)
            var info = stat()
            if lstat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, hops < 40,
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: candidate)
            {
                hops += 1
                let absolute = target.hasPrefix("/") ? target : PathString.join(result, target)
                pending = absolute.split(separator: "/").map(String.init) + pending
                result = "/"
                continue
            }
            result = URL(fileURLWithPath: candidate).standardizedFileURL.path
        }
        return result
    }

    /// NAME_MAX of Linux filesystems (ext4, XFS, Btrfs, tmpfs) and of APFS.
    static let longestName = 255

    static func identity(_ folder: Folder) -> [UInt64] {
        var info = stat()
        fstat(folder.descriptor, &info)
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}

/// The folders of one stream tree, opened once each, relative to its root.
final class Tree {
    let root: String
    private let followLinks: Bool
    private let create: Bool
    private var folders: [String: Folder] = [:]

    /// `opened`: the root folder, already open (the tree then never opens it by its path).
    init(root: String, followLinks: Bool, create: Bool, opened: Folder? = nil) {
        self.root = root
        self.followLinks = followLinks
        self.create = create
        if let opened { folders[""] = opened }
    }

    static func split(_ file: String) -> (folder: String, name: String) {
        // Not NSString.deletingLastPathComponent: swift-corelibs-foundation traps on a
        // one-character path ("a"), which a stream's folder may well be called.
        // The '/' found among the UTF-8 bytes: a path is split once per file written.
        guard let slash = file.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", file) }
        return (String(file[..<slash]), String(file[file.utf8.index(after: slash)...]))
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : PathString.join(folder, name)
    }

    func absolute(_ relative: String) -> String {
        PathString.join(root, relative)
    }

    func folder(_ relative: String, create: Bool? = nil) throws(EmbedError) -> Folder {
        if let known = folders[relative] { return known }
        let opened: Folder
        if relative.isEmpty {
            opened = try Folder.open(root)
        } else {
            let (parent, name) = Self.split(relative)
            opened = try folder(parent, create: create).subfolder(
                name, create: create ?? self.create, followLinks: followLinks)
        }
        folders[relative] = opened
        return opened
    }

    func read(_ file: String, followLinks: Bool = false) throws(EmbedError) -> [UInt8]? {
        let (folder, name) = Self.split(file)
        let parent: Folder
        do { parent = try self.folder(folder, create: false) } catch {
            // A folder that is gone took the file with it; one that is there but cannot be
            // opened (no read permission) is said as it is, not as a file that disappeared.
            var info = stat()
            if lstat(absolute(folder), &info) != 0, errno == ENOENT { return nil }
            throw error
        }
        return try parent.read(name, followLinks: followLinks)
    }

    /// `file` becomes the same bytes as in `source` (a hard link, or a copy), unless it already is.
    func copy(_ file: String, from source: Tree, run: String, progress: WriteProgress) throws(EmbedError) {
        let (folder, name) = Self.split(file)
        let from = try source.folder(folder)
        let to = try self.folder(folder)
        if let existing = to.status(name) {
            guard Folder.isRegular(existing) else {
                throw EmbedError(
                    "\(absolute(file)) exists and is not a regular file (a link or a folder); embed does not replace it — move it away"
                )
            }
            if let original = from.status(name, followLinks: true) {
                if original.st_dev == existing.st_dev && original.st_ino == existing.st_ino { return }
                if original.st_size == existing.st_size, try to.read(name) == from.read(name, followLinks: true) {
                    return
                }
            }
        }
        try to.link(name, to: from, name, run: run, progress: progress)
    }

    /// Replaces `file` with `bytes` in one rename, keeping the mode (and with `owner`, the owner)
    /// of the file it replaces — or, for a new file, of the source's.
    func replace(
        _ file: String, with bytes: [UInt8], like source: Tree, owner: Bool, run: String, progress: WriteProgress
    ) throws(EmbedError) {
        let (folder, name) = Self.split(file)
        let parent = try self.folder(folder)
        let existing = parent.status(name)
        if let existing, !Folder.isRegular(existing) {
            throw EmbedError(
                "\(absolute(file)) is \(Folder.isLink(existing) ? "a symbolic link" : "not a regular file"); embed does not replace it — point the command at the real file, or use --output"
            )
        }
        let like = existing ?? (try? source.folder(folder))?.status(name, followLinks: true)
        let temporary = try parent.temporary(
            for: name, run: run, bytes: bytes[...], like: like, owner: owner || existing != nil, progress: progress)
        try parent.replace(name, with: temporary, progress: progress)
        parent.sync()
    }

    func syncAll() {
        for folder in folders.values { folder.sync() }
    }
}

/// A rewritten segment written as a temporary file, waiting for the flush and its new name.
struct PendingSegment {
    var folder: String
    var temporary: String
    var newName: String
    /// `--keep-names`: renamed over the file of its own name.
    var overOwnName: Bool
    var playlist: String
    /// The playlist's lines that change once the file has its name (1-based line: new text).
    var edits: [Int: String]
}

/// New bytes for one file of the stream, and the lines of its playlist that name it: a
/// segment (its URI line), or a file whose byte ranges are segments (ByteRangedFile: each
/// segment's URI and EXT-X-BYTERANGE line, and the EXT-X-MAP lines of ranges in it).
struct RewrittenFile {
    /// The playlist (a resolved URI).
    var playlistURI: String
    /// The file's URI as the playlist writes it (on its first line).
    var uri: String
    var bytes: [UInt8]
    /// `SegmentName.fingerprint(bytes)` when the caller has it already (nil: hashed by the writer).
    var fingerprint: String?
    /// The lines that name the file: 1-based line → the URI as written there.
    var uriLines: [Int: String]
    /// EXT-X-BYTERANGE lines of its segments: 1-based line → the range in the new bytes.
    var rangeLines: [Int: ByteRange] = [:]
    /// EXT-X-MAP lines of ranges in it: 1-based line → its URI as written, the range in the new bytes.
    var mapLines: [Int: (uri: String, range: ByteRange)] = [:]

    /// A whole segment.
    init(playlistURI: String, segment: MediaSegment, bytes: [UInt8], fingerprint: String?) {
        self.playlistURI = playlistURI
        self.uri = segment.uri
        self.bytes = bytes
        self.fingerprint = fingerprint
        self.uriLines = [segment.uriLine: segment.uri]
    }

    init(
        playlistURI: String, uri: String, bytes: [UInt8], uriLines: [Int: String], rangeLines: [Int: ByteRange],
        mapLines: [Int: (uri: String, range: ByteRange)]
    ) {
        self.playlistURI = playlistURI
        self.uri = uri
        self.bytes = bytes
        self.uriLines = uriLines
        self.rangeLines = rangeLines
        self.mapLines = mapLines
    }

    /// Whether the playlist's ranges into the file change with its bytes.
    var rangesMove: Bool { !rangeLines.isEmpty || !mapLines.isEmpty }

    /// The new text of every line that names the file, its URIs passed through `rename`. Offsets
    /// are always written (RFC 8216 §4.3.2.2 allows leaving them out only after a range of the
    /// same file; written, they stay true whatever moves).
    func lines(renaming rename: (String) -> String) -> [Int: String] {
        var lines = uriLines.mapValues(rename)
        for (line, range) in rangeLines { lines[line] = "#EXT-X-BYTERANGE:\(range.length)@\(range.offset)" }
        for (line, map) in mapLines {
            lines[line] = "#EXT-X-MAP:URI=\"\(rename(map.uri))\",BYTERANGE=\"\(map.range.length)@\(map.range.offset)\""
        }
        return lines
    }
}

/// Line-level edits of a playlist: only the named lines change, every other byte stays.
enum PlaylistLines {
    /// `bytes` with the content of each 1-based line in `edits` replaced (its line ending kept).
    static func replacing(_ edits: [Int: String], in bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + edits.count * 16)
        var line = 1
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var contentEnd = end
            if contentEnd > start, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            if let replacement = edits[line] {
                var contentStart = start
                if line == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { contentStart += 3 }
                out += bytes[start..<contentStart]
                out += Array(replacement.utf8)
                out += bytes[contentEnd..<end]
            } else {
                out += bytes[start..<end]
            }
            guard end < bytes.count else { break }
            out.append(0x0A)
            start = end + 1
            line += 1
        }
        return out
    }
}
