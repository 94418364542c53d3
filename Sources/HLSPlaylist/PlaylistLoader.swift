// Loading a stream: the root playlist and every media playlist it references, each read once.

import FileSystem
import StreamSources

/// Where playlist bytes come from. `uri` is already resolved (a path or a URL string).
package protocol PlaylistSource: Sendable {
    /// The whole playlist at `uri`. Throws when it cannot be read (the built-in sources throw
    /// `InputReadError`, also for a file over their size limit); never for content problems.
    func read(_ uri: String) async throws -> [UInt8]
    /// A name that is the same for every spelling of one playlist (for a local file: its real
    /// path, symlinks and `..` resolved), nil when it cannot be known without reading. The loader
    /// reads each canonical name once, and confines local streams to their root with it.
    func canonicalName(_ uri: String) async -> String?
    /// Where the playlist at `uri` was finally found, when a redirect moved it: the base its
    /// relative URIs resolve against (RFC 3986 §5.1.3). Nil when it was found where asked.
    func finalURI(_ uri: String) async -> String?
    /// The playlist at `uri` already parsed from the bytes `read(uri)` would return (parsed with
    /// `uri` as its URI, no imported variables and no query parameters), with those bytes; nil
    /// when the source has none. The loader then uses it as the stream's root instead of
    /// parsing again (folder discovery parses the multivariant playlists it finds).
    func parsedPlaylist(_ uri: String) async -> (bytes: [UInt8], playlist: Playlist)?
}

extension PlaylistSource {
    /// No canonical name: each spelling of a URI is read on its own.
    package func canonicalName(_ uri: String) async -> String? { nil }
    package func finalURI(_ uri: String) async -> String? { nil }
    /// Nothing parsed in advance.
    package func parsedPlaylist(_ uri: String) async -> (bytes: [UInt8], playlist: Playlist)? { nil }
}

/// Playlists larger than this are refused (a playlist of a 10-hour stream is a few MiB).
package let maximumPlaylistSize = 16 * 1024 * 1024

/// Reads local files — regular files only: a FIFO, a device or a folder is refused before a byte
/// is read, so nothing can block the checker. Relative paths are relative to the working directory.
package struct LocalFileSource: PlaylistSource {
    /// Largest file read, in bytes; larger files are refused.
    package var maximumSize: Int

    /// A source with the default limit, `maximumPlaylistSize` bytes.
    package init() {
        self.maximumSize = maximumPlaylistSize
    }

    /// A source that refuses files larger than `maximumSize` bytes.
    package init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    /// Reads a whole regular file (a `file://` URL or a path). Throws `InputReadError` when it is
    /// missing, not a regular file, unreadable or larger than `maximumSize`.
    package func read(_ uri: String) async throws -> [UInt8] {
        guard let name = LocalPath.name(of: uri) else { return try Self.readFile(uri, maximumSize: maximumSize) }
        if let refusal = name.refusal { throw InputReadError(uri: uri, reason: "not read: \(refusal)") }
        do {
            return try Self.readFile(name.path, maximumSize: maximumSize)
        } catch {
            guard let tried = name.triedNames, name.isMissing else { throw error }
            throw InputReadError(uri: uri, reason: "\(Self.noSuchFile)\(tried)")
        }
    }

    /// How the reason for a URI that names no existing file starts (the names tried follow).
    static let noSuchFile = "no such file: "

    /// The file's `size` bytes, read into the array itself; nil when that is not all it holds.
    private static func readExactly(_ file: RegularFile) -> [UInt8]? {
        let size = file.size
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var filled = 0
            while filled < size, let base = buffer.baseAddress {
                let count = file.positionedRead(into: base + filled, count: size - filled, at: filled)
                guard count > 0 else { break }
                filled += count
            }
            initialized = filled
            complete = filled == size
        }
        guard complete else { return nil }
        // One byte more would mean the file grew since its size was taken.
        var probe: UInt8 = 0
        guard file.positionedRead(into: &probe, count: 1, at: size) == 0 else { return nil }
        return bytes
    }

    /// The real path (symlinks and `..` resolved), nil when the file does not exist.
    package func canonicalName(_ uri: String) async -> String? {
        LocalPath.path(of: uri).flatMap(RegularFile.realPath)
    }

    /// Opens the real path (the one confinement judged) without following a final symlink, so a
    /// link swapped in after the check is refused rather than followed.
    static func readFile(_ path: String, maximumSize: Int) throws(InputReadError) -> [UInt8] {
        do {
            let file = try RegularFile(path: RegularFile.realPath(path) ?? path, followSymlinks: false)
            // The size known, the bytes go straight into the array (no chunk copied over, which
            // is 10 MB of copying for a 100 000-segment playlist); anything unusual — a read
            // error, a file that shrank or grew — is left to `readAll`, which says what.
            if file.size > 0, file.size <= maximumSize, let bytes = readExactly(file) { return bytes }
            return try file.readAll(maximumBytes: maximumSize, limitHint: "--max-playlist-bytes")
        } catch {
            throw InputReadError(uri: path, reason: error.reason)
        }
    }
}

/// The limits the loader enforces; each message names the option that raises it.
package struct LoaderLimits: Sendable, Hashable {
    /// Bytes of one playlist (`--max-playlist-bytes`).
    package var playlistBytes: Int
    /// Lines of one playlist (`--max-playlist-lines`).
    package var playlistLines: Int
    /// Playlists of one stream, the root included (`--max-playlists`).
    package var playlists: Int
    /// Media segments of one media playlist (`--max-segments`).
    package var segmentsPerPlaylist: Int

    /// The defaults: 16 MiB and 1 000 000 lines per playlist, 1 000 playlists, 100 000 segments per playlist.
    package init(
        playlistBytes: Int = maximumPlaylistSize, playlistLines: Int = 1_000_000, playlists: Int = 1_000,
        segmentsPerPlaylist: Int = 100_000
    ) {
        self.playlistBytes = playlistBytes
        self.playlistLines = playlistLines
        self.playlists = playlists
        self.segmentsPerPlaylist = segmentsPerPlaylist
    }
}

/// A referenced playlist that could not be loaded, located at the line that references it.
package struct LoadFailure: Sendable, Hashable {
    /// The resolved URI of the playlist that could not be loaded.
    package var uri: String
    /// The line that references it (a URI line or URI attribute in the root playlist).
    package var referencedFrom: SourceLocation
    /// Why: the operating system's reason, or the limit that refused it.
    package var reason: String

    /// Makes a failure.
    package init(uri: String, referencedFrom: SourceLocation, reason: String) {
        self.uri = uri
        self.referencedFrom = referencedFrom
        self.reason = reason
    }
}

/// A root playlist and the media playlists it references.
package struct LoadedStream: Sendable {
    /// The URI the stream was loaded from, as given.
    package var rootURI: String
    /// The root playlist: multivariant, or a media playlist on its own.
    package var root: Playlist
    /// The playlists the root references, keyed by resolved URI. Empty when the root is itself a
    /// media playlist (it is only in `root`, so nothing is reported twice). Two URIs that name
    /// the same file share one value, read once; see `uniquePlaylists`.
    package var mediaPlaylists: [String: Playlist]
    /// Referenced playlists that could not be read, each with the line that references it.
    package var failures: [LoadFailure]
    /// Local files named by a playlist or segment URI that lie outside the stream's root: not read.
    package var outsideRoot: [OutsideRootReference]
    /// The one canonical-URI index of the stream: every other spelling of a file read (a
    /// resolved URI of `mediaPlaylists`) mapped to the spelling it was read under. A spelling
    /// read itself is not in it.
    package var aliases: [String: String] = [:]

    /// Makes a loaded stream.
    package init(
        rootURI: String, root: Playlist, mediaPlaylists: [String: Playlist], failures: [LoadFailure],
        outsideRoot: [OutsideRootReference] = []
    ) {
        self.rootURI = rootURI
        self.root = root
        self.mediaPlaylists = mediaPlaylists
        self.failures = failures
        self.outsideRoot = outsideRoot
    }

    /// The spelling `uri` (a resolved URI) was read under: the same for every name of one file,
    /// `uri` itself when it was read under its own name.
    package func canonicalURI(of uri: String) -> String { aliases[uri] ?? uri }

    /// `reference` resolved against the root playlist's URI (RFC 3986 §5.2).
    package func resolve(_ reference: String) -> String { URIResolver.resolve(reference, against: rootURI) }

    /// The variant's URI resolved against the root.
    package func resolvedURI(of variant: VariantStream) -> String { resolve(variant.uri) }
    /// The I-frame variant's URI resolved against the root.
    package func resolvedURI(of variant: IFrameVariantStream) -> String { resolve(variant.uri) }
    /// The rendition's URI resolved against the root; nil when the rendition has no URI.
    package func resolvedURI(of rendition: Rendition) -> String? { rendition.uri.map(resolve) }

    /// The variant's media playlist, nil when it could not be loaded (see `failure(for:)`).
    package func playlist(for variant: VariantStream) -> Playlist? { mediaPlaylists[resolvedURI(of: variant)] }
    /// The I-frame variant's playlist, nil when it could not be loaded.
    package func playlist(for variant: IFrameVariantStream) -> Playlist? { mediaPlaylists[resolvedURI(of: variant)] }
    /// The rendition's media playlist, nil when it has no URI or could not be loaded.
    package func playlist(for rendition: Rendition) -> Playlist? {
        resolvedURI(of: rendition).flatMap { mediaPlaylists[$0] }
    }

    /// The failure of a variant's playlist, if it could not be loaded.
    package func failure(for uri: String) -> LoadFailure? { failures.first { $0.uri == uri } }

    /// Resolved URIs (playlists and segments) that were refused for lying outside the root.
    package var outsideRootURIs: Set<String> { Set(outsideRoot.map(\.resolvedURI)) }

    /// Every playlist that was read, each once however many names it has: root first, then
    /// media playlists in URI order.
    package var uniquePlaylists: [Playlist] {
        [root] + distinctMediaPlaylists.map(\.playlist)
    }

    /// The playlists the root references other than itself, each file once however many
    /// spellings name it (`a/index.m3u8?r=1` … `?r=16000`, `./a.m3u8`, a symlink), under the
    /// first of its keys in URI order; in URI order. What iterates the stream's playlists goes
    /// through here, so the work of judging them grows with the files, not with their names.
    package var distinctMediaPlaylists: [(uri: String, playlist: Playlist)] {
        var seen: Set<String> = [root.uri]
        var result: [(uri: String, playlist: Playlist)] = []
        for key in mediaPlaylists.keys.sorted() {
            if let playlist = mediaPlaylists[key], seen.insert(playlist.uri).inserted { result.append((key, playlist)) }
        }
        return result
    }

    /// Every playlist's problems, root first, then media playlists in URI order.
    package var allProblems: [PlaylistProblem] { uniquePlaylists.flatMap(\.problems) }
}

/// Walks a multivariant playlist to every media playlist it references (variants, EXT-X-MEDIA
/// renditions with a URI, I-frame playlists), concurrently. Each file is read once whatever its
/// name (`a/../x.m3u8`, a symlink, the root itself); a local stream reads nothing outside its
/// root; the limits bound what one stream can cost.
package struct PlaylistLoader: Sendable {
    /// Where playlist bytes come from.
    package var source: any PlaylistSource
    /// What one stream may cost.
    package var limits: LoaderLimits
    /// How local files outside the stream's root are treated.
    package var confinement: Confinement

    /// Largest playlist read, in bytes: `limits.playlistBytes`.
    package var maximumSize: Int {
        get { limits.playlistBytes }
        set { limits.playlistBytes = newValue }
    }

    /// A loader with default limits except the playlist size (bytes), confined to the root playlist's folder.
    package init(source: any PlaylistSource, maximumSize: Int = maximumPlaylistSize) {
        self.init(source: source, limits: LoaderLimits(playlistBytes: maximumSize))
    }

    /// A loader with the given limits and confinement (default: the root playlist's folder).
    package init(source: any PlaylistSource, limits: LoaderLimits, confinement: Confinement = Confinement()) {
        self.source = source
        self.limits = limits
        self.confinement = confinement
    }

    /// The root a local stream entered at `uri` is confined to; nil when not confined (remote,
    /// allowed outside, or the folder does not exist).
    package func streamRoot(for uri: String) -> StreamRoot? {
        guard !confinement.allowOutside, LocalPath.path(of: uri) != nil else { return nil }
        if let folder = confinement.root { return StreamRoot(folder: folder) }
        return StreamRoot(ofPlaylist: uri)
    }

    /// Throws `InputReadError` only when the root itself cannot be read (or is over a limit).
    /// `requested` is what the user named the stream by: a file path, or an http(s) or file URL
    /// (`ResolutionBase(input:)`); errors about it name it as given.
    package func load(_ requested: String) async throws -> LoadedStream {
        // The one place the stream's base is made: a path the user typed is a file path, every
        // character part of a name ("Stream #1/", "what?/", "100%/"), and becomes the URI
        // reference that names that very file; the stream's URIs resolve against it.
        let base = ResolutionBase(input: requested)
        let requestedURI = base.uriReference
        let streamRoot = streamRoot(for: requestedURI)
        // A stream read from the network never names local files, whatever --allow-outside-root
        // says: that flag is about a local stream's folder (docs/security.md, "Remote streams").
        let remoteRoot = LocalPath.path(of: requestedURI) == nil
        // The input is the user's own choice: it is judged only against a root they chose too.
        if let streamRoot, confinement.root != nil, !streamRoot.contains(requestedURI) {
            throw InputReadError(
                uri: requested,
                reason:
                    "lies outside the root \(streamRoot.path); it was not read (choose the root with --root DIR, or pass --allow-outside-root)"
            )
        }
        let (uri, root) = try await readRoot(requested, base: base)
        if let media = root.media, media.segments.count > limits.segmentsPerPlaylist {
            throw InputReadError(uri: requested, reason: tooManySegments(media.segments.count))
        }
        guard let multivariant = root.multivariant else {
            var listings: [String: Set<String>?] = [:]
            let outside =
                streamRoot.map { outsideSegments(of: root, at: uri, root: $0, listings: &listings) }
                ?? (remoteRoot ? localSegments(of: root, at: uri, root: uri) : [])
            return LoadedStream(rootURI: uri, root: root, mediaPlaylists: [:], failures: [], outsideRoot: outside)
        }

        var outside = await sessionDataOutsideRoot(
            multivariant, root: root, at: uri, streamRoot: streamRoot, remoteRoot: remoteRoot)
        var plan = await readPlan(
            references(multivariant, root: root, at: uri), at: uri, streamRoot: streamRoot, remoteRoot: remoteRoot)
        outside += plan.outside
        var playlists = await readAll(plan.toRead, imported: root.variables, failures: &plan.failures)
        // Every other spelling of a file gets what its first spelling got: the same parse, or
        // the same failure (looked up by URI, not searched for: one per spelling).
        var failureReasons: [String: String] = [:]
        for failure in plan.failures where failureReasons[failure.uri] == nil {
            failureReasons[failure.uri] = failure.reason
        }
        var aliases: [String: String] = [:]
        for alias in plan.aliases {
            aliases[alias.uri] = alias.first
            if alias.first == uri {
                playlists[alias.uri] = root
            } else if let playlist = playlists[alias.first] {
                playlists[alias.uri] = playlist
            } else if let reason = failureReasons[alias.first] {
                plan.failures.append(LoadFailure(uri: alias.uri, referencedFrom: alias.from, reason: reason))
            }
        }
        outside += segmentsOutsideRoot(playlists, rootURI: uri, streamRoot: streamRoot)
        plan.failures.sort {
            ($0.referencedFrom.line, $0.referencedFrom.column) < ($1.referencedFrom.line, $1.referencedFrom.column)
        }
        outside.sort {
            ($0.location.uri, $0.location.line, $0.location.column) < (
                $1.location.uri, $1.location.line, $1.location.column
            )
        }
        var loaded = LoadedStream(
            rootURI: uri, root: root, mediaPlaylists: playlists, failures: plan.failures, outsideRoot: outside)
        loaded.aliases = aliases
        return loaded
    }

    /// A playlist the multivariant playlist names: its resolved URI, as written, and where.
    private typealias Reference = (uri: String, written: String, from: SourceLocation)

    /// Each resolved URI the multivariant playlist names once, with its first reference.
    private func references(_ multivariant: MultivariantPlaylist, root: Playlist, at uri: String) -> [Reference] {
        var references: [Reference] = []
        var seen: Set<String> = []
        func add(_ reference: String, _ location: SourceLocation) {
            let resolved = URIResolver.resolve(reference, against: uri)
            if seen.insert(resolved).inserted { references.append((resolved, reference, location)) }
        }
        for v in multivariant.variants { add(v.uri, root.location(line: v.uriLine, column: 1)) }
        for r in multivariant.renditions {
            if let u = r.uri { add(u, root.location(line: r.line, column: r.attributes["URI"]?.column ?? 0)) }
        }
        for v in multivariant.iFrameVariants where !v.uri.isEmpty {
            add(v.uri, root.location(line: v.line, column: v.attributes["URI"]?.column ?? 0))
        }
        return references
    }

    /// JSON session data outside the root: session-data-format-mismatch reads JSON session data,
    /// so a file outside the root is reported with the rest and never read.
    private func sessionDataOutsideRoot(
        _ multivariant: MultivariantPlaylist, root: Playlist, at uri: String, streamRoot: StreamRoot?, remoteRoot: Bool
    ) async -> [OutsideRootReference] {
        var outside: [OutsideRootReference] = []
        for data in multivariant.sessionData where (data.format ?? "JSON") == "JSON" {
            guard let written = data.uri else { continue }
            let resolved = URIResolver.resolve(written, against: uri)
            let location = root.location(line: data.line, column: 0)
            if let streamRoot, let local = LocalPath.name(of: resolved) {
                let name = await source.canonicalName(resolved)
                if local.refusal != nil || !streamRoot.contains(canonicalPath: name ?? StreamRoot.canonical(local.path))
                {
                    outside.append(
                        OutsideRootReference(
                            uri: written, resolvedURI: resolved, location: location, root: streamRoot.path,
                            refusal: local.refusal))
                }
            } else if remoteRoot, LocalPath.path(of: resolved) != nil {
                outside.append(
                    OutsideRootReference(
                        uri: written, resolvedURI: resolved, location: location, root: uri,
                        refusal: LocalPath.name(of: resolved)?.refusal))
            }
        }
        return outside
    }

    /// What to do with each reference, decided before any read: outside the root (a finding),
    /// another name of a file read already (read once), over the playlist limit, or to read.
    private struct ReadPlan {
        var outside: [OutsideRootReference] = []
        var failures: [LoadFailure] = []
        /// Names of a file read under another (`first`).
        var aliases: [(uri: String, from: SourceLocation, first: String)] = []
        var toRead: [(uri: String, from: SourceLocation)] = []
    }

    private func readPlan(_ references: [Reference], at uri: String, streamRoot: StreamRoot?, remoteRoot: Bool)
        async -> ReadPlan
    {
        var plan = ReadPlan()
        var readerOf: [String: String] = [:]  // canonical name -> resolved URI read
        if let rootName = await source.canonicalName(uri) { readerOf[rootName] = uri }
        for reference in references {
            let name = await source.canonicalName(reference.uri)
            if let streamRoot, let local = LocalPath.name(of: reference.uri),
                local.refusal != nil || !streamRoot.contains(canonicalPath: name ?? StreamRoot.canonical(local.path))
            {
                plan.outside.append(
                    OutsideRootReference(
                        uri: reference.written, resolvedURI: reference.uri, location: reference.from,
                        root: streamRoot.path,
                        refusal: local.refusal))
                continue
            }
            // A stream read from the network has no business naming local files.
            if remoteRoot, LocalPath.path(of: reference.uri) != nil {
                plan.outside.append(
                    OutsideRootReference(
                        uri: reference.written, resolvedURI: reference.uri, location: reference.from, root: uri,
                        refusal: LocalPath.name(of: reference.uri)?.refusal))
                continue
            }
            // Every spelling counts, read or not: `--max-playlists` bounds the names a stream can
            // make the checker map and report (a/index.m3u8?r=1 … ?r=16000 name one file), not
            // only the files it reads.
            if plan.toRead.count + plan.aliases.count + 1 >= limits.playlists {
                plan.failures.append(
                    LoadFailure(
                        uri: reference.uri, referencedFrom: reference.from,
                        reason:
                            "not read: the stream names more than \(limits.playlists) playlists (raise the limit with --max-playlists)"
                    ))
                continue
            }
            if let name, let first = readerOf[name] {
                plan.aliases.append((reference.uri, reference.from, first))
                continue
            }
            if let name { readerOf[name] = reference.uri }
            plan.toRead.append((reference.uri, reference.from))
        }
        return plan
    }

    /// The planned playlists read and parsed in parallel, by resolved URI; what cannot be read is
    /// added to `failures`.
    private func readAll(
        _ toRead: [(uri: String, from: SourceLocation)], imported: [String: String], failures: inout [LoadFailure]
    ) async -> [String: Playlist] {
        var playlists: [String: Playlist] = [:]
        await withTaskGroup(of: (Int, Result<Playlist, InputReadError>).self) { group in
            for (index, reference) in toRead.enumerated() {
                group.addTask {
                    do {
                        let bytes = try await self.read(reference.uri)
                        let base = await self.source.finalURI(reference.uri) ?? reference.uri
                        let playlist = try self.parse(bytes, uri: base, imported: imported)
                        if let media = playlist.media, media.segments.count > self.limits.segmentsPerPlaylist {
                            return (
                                index,
                                .failure(
                                    InputReadError(
                                        uri: reference.uri, reason: self.tooManySegments(media.segments.count)))
                            )
                        }
                        return (index, .success(playlist))
                    } catch let error as InputReadError {
                        return (index, .failure(error))
                    } catch {
                        return (index, .failure(InputReadError(uri: reference.uri, reason: "cannot be read")))
                    }
                }
            }
            for await (index, result) in group {
                let reference = toRead[index]
                switch result {
                case .success(let playlist):
                    playlists[reference.uri] = playlist
                case .failure(let error):
                    failures.append(
                        LoadFailure(uri: reference.uri, referencedFrom: reference.from, reason: error.reason))
                }
            }
        }
        return playlists
    }

    /// Segments of the media playlists that lie outside the root, or local segments of a playlist
    /// read from the network.
    private func segmentsOutsideRoot(_ playlists: [String: Playlist], rootURI: String, streamRoot: StreamRoot?)
        -> [OutsideRootReference]
    {
        var outside: [OutsideRootReference] = []
        var checked: Set<String> = []
        // Each folder listed once for all its playlists: listing it per playlist made a stream of
        // N media playlists in one folder cost N listings of N entries.
        var listings: [String: Set<String>?] = [:]
        for key in playlists.keys.sorted() {
            guard let playlist = playlists[key], checked.insert(playlist.uri).inserted, playlist.uri != rootURI else {
                continue
            }
            if LocalPath.path(of: playlist.uri) == nil {
                // A playlist read from the network names no local file (even when a local
                // multivariant playlist referenced it).
                outside += localSegments(of: playlist, at: playlist.uri, root: playlist.uri)
            } else if let streamRoot {
                outside += outsideSegments(of: playlist, at: playlist.uri, root: streamRoot, listings: &listings)
            }
        }
        return outside
    }

    /// The root playlist: its URI (after a redirect, where it was found) and its parse. Errors
    /// name it as the user named it; a typed path that is missing is simply missing (the names
    /// a URI may denote are for URIs written in playlists).
    private func readRoot(_ requested: String, base: ResolutionBase) async throws(InputReadError) -> (
        String, Playlist
    ) {
        let requestedURI = base.uriReference
        do {
            if let handed = await source.parsedPlaylist(requestedURI), handed.playlist.uri == requestedURI,
                Self.queryParameters(of: requestedURI).isEmpty
            {
                // Parsed already, from the bytes a read would return: the same limits apply.
                try checkSize(handed.bytes, uri: requestedURI)
                try checkLines(handed.bytes, uri: requestedURI)
                return (requestedURI, handed.playlist)
            }
            let bytes = try await read(requestedURI)
            // After a redirect, the stream is where it was found: its URIs resolve against that.
            let uri = await source.finalURI(requestedURI) ?? requestedURI
            return (uri, try parse(bytes, uri: uri, imported: [:]))
        } catch {
            // (`LocalFileSource` says "no such file: tried …" for a URI that may name two files.)
            if case .filePath = base, error.reason.hasPrefix(LocalFileSource.noSuchFile),
                LocalFileName(uri: requestedURI).isMissing
            {
                throw InputReadError(uri: requested, reason: "no such file or folder")
            }
            throw InputReadError(uri: requested, reason: error.reason)
        }
    }

    private func read(_ uri: String) async throws(InputReadError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try await source.read(uri)
        } catch let error as InputReadError {
            throw error
        } catch {
            throw InputReadError(uri: uri, reason: "cannot be read")
        }
        try checkSize(bytes, uri: uri)
        return bytes
    }

    private func checkSize(_ bytes: [UInt8], uri: String) throws(InputReadError) {
        if bytes.count > limits.playlistBytes {
            throw InputReadError(
                uri: uri, reason: RegularFile.tooLarge(bytes.count, limits.playlistBytes, "--max-playlist-bytes"))
        }
    }

    private func checkLines(_ bytes: [UInt8], uri: String) throws(InputReadError) {
        // Eight bytes at a time rather than a test per byte.
        let lines = 1 + bytes.withUnsafeBufferPointer { ParserState.lineFeedCount(in: $0) }
        if lines > limits.playlistLines {
            throw InputReadError(
                uri: uri,
                reason: "has more than \(limits.playlistLines) lines (raise the limit with --max-playlist-lines)")
        }
    }

    private func parse(_ bytes: [UInt8], uri: String, imported: [String: String]) throws(InputReadError) -> Playlist {
        try checkLines(bytes, uri: uri)
        return PlaylistParser.parse(
            bytes, uri: uri, importedVariables: imported, queryParameters: Self.queryParameters(of: uri))
    }

    private func tooManySegments(_ count: Int) -> String {
        "has \(count) segments, more than the limit of \(limits.segmentsPerPlaylist) (raise it with --max-segments)"
    }

    /// Segment and EXT-X-MAP URIs of a media playlist whose local files lie outside the root.
    /// `listings`: the folders listed so far (PlaylistFolder), by path.
    private func outsideSegments(
        of playlist: Playlist, at uri: String, root: StreamRoot, listings: inout [String: Set<String>?]
    ) -> [OutsideRootReference] {
        guard playlist.media != nil else { return [] }
        let folder = PlaylistFolder(playlistURI: uri, root: root, listings: &listings)
        return outsideSegments(
            of: playlist, at: uri, rootName: root.path, surelyInside: { folder?.surelyInside($0) ?? false },
            surelyInsideNumbered: { folder?.surelyInside(numbered: $0) ?? false }
        ) {
            root.contains($0)
        }
    }

    /// For a stream read from the network: segment URIs that name local files.
    private func localSegments(of playlist: Playlist, at uri: String, root: String) -> [OutsideRootReference] {
        outsideSegments(
            of: playlist, at: uri, rootName: root, surelyInside: { _ in false }, surelyInsideNumbered: { _ in false }
        ) {
            LocalPath.path(of: $0) == nil
        }
    }

    private func outsideSegments(
        of playlist: Playlist, at uri: String, rootName: String, surelyInside: (String) -> Bool,
        surelyInsideNumbered: (URITemplate) -> Bool, inside isInside: (String) -> Bool
    ) -> [OutsideRootReference] {
        guard let media = playlist.media else { return [] }
        var result: [OutsideRootReference] = []
        var judged: [String: Bool] = [:]
        func judge(_ written: String, _ line: Int) {
            // A plain name in the playlist's own folder (inside the root) that is no symlink:
            // nothing to resolve, nothing to report.
            if surelyInside(written) { return }
            let resolved = URIResolver.resolve(written, against: uri)
            let inside: Bool
            if let known = judged[resolved] {
                inside = known
            } else {
                inside = isInside(resolved)
                judged[resolved] = inside
                if !inside {
                    result.append(
                        OutsideRootReference(
                            uri: written, resolvedURI: resolved, location: playlist.location(line: line),
                            root: rootName,
                            refusal: LocalPath.name(of: resolved)?.refusal))
                }
            }
        }
        var previous: MediaSegment?
        // The template of a run of numbered names judged surely inside: the rest of the run
        // is too, without making each name (92 000 strings for a long playlist).
        var insideTemplate: URITemplate?
        for segment in media.segments where !segment.gap {
            if let template = segment.uriTemplate {
                if template !== insideTemplate {
                    if surelyInsideNumbered(template) {
                        insideTemplate = template
                    } else {
                        judge(segment.uri, segment.uriLine)
                    }
                }
            } else {
                judge(segment.uri, segment.uriLine)
            }
            // A run of segments shares one key and map: judged at the run's first segment.
            if let previous, previous.sharesContext(with: segment) { continue }
            previous = segment
            if let map = segment.map { judge(map.uri, map.line) }
            // An AES-128 key is read too (16 bytes, to decrypt and measure the segment).
            if let key = segment.key, key.method == "AES-128", let keyURI = key.uri { judge(keyURI, key.line) }
        }
        return result
    }

    /// The query parameters of a URI, for EXT-X-DEFINE:QUERYPARAM (rfc8216bis §4.4.2.3).
    static func queryParameters(of uri: String) -> [String: String] {
        let components = URIComponents(uri)
        guard let query = components.query else { return [:] }
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first, !name.isEmpty else { continue }
            if result[String(name)] == nil { result[String(name)] = parts.count == 2 ? String(parts[1]) : "" }
        }
        return result
    }
}

/// The folder of a local media playlist, listed once, so that its plain segment names
/// (`seg123.ts`: no '/', '?', '#', ':' or '%') are judged inside the root without resolving each
/// one: such a name resolves to the folder plus the name, and unless it is a symlink its real
/// path is the folder's real path plus the name. Anything else takes the full path.
struct PlaylistFolder {
    /// Entries that are, or may be, symlinks.
    let possibleSymlinks: Set<String>

    /// nil when the playlist is not a plain local path, or its folder lies outside the root or
    /// cannot be listed.
    /// `listings`: folders already listed, by path (nil: could not be listed), so that the
    /// playlists of one folder share one listing.
    init?(playlistURI uri: String, root: StreamRoot, listings: inout [String: Set<String>?]) {
        let components = URIComponents(uri)
        guard components.scheme == nil, components.authority == nil else { return nil }
        // Resolution treats the last path segment on its own: "x" resolves to prefix + "x".
        let probe = URIResolver.resolve("x", against: uri)
        guard probe.hasSuffix("x"), URIComponents(probe).scheme == nil else { return nil }
        let prefix = probe.dropLast()
        var folderURI = String(prefix.hasSuffix("/") ? prefix.dropLast() : prefix)
        if folderURI.isEmpty { folderURI = probe.hasPrefix("/") ? "/" : "." }
        // The folder the URI names (a folder typed as "Stream #1" is "Stream %231" in it).
        guard let folder = LocalPath.name(of: folderURI).flatMap({ $0.refusal == nil ? $0.path : nil }) else {
            return nil
        }
        guard let real = RegularFile.realPath(folder), root.contains(canonicalPath: real) else { return nil }
        if listings[folder] == nil { listings[folder] = .some(FolderListing.possibleSymlinks(in: folder)) }
        guard let listed = listings[folder], let links = listed else { return nil }
        possibleSymlinks = links
    }

    /// Whether every name of a numbered run is surely inside: a plain prefix and suffix around
    /// the digits, and no symlink in the folder.
    func surelyInside(numbered template: URITemplate) -> Bool {
        guard possibleSymlinks.isEmpty else { return false }
        return !(template.prefix + template.suffix).contains { byte in
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: ":"), UInt8(ascii: "\\"),
                UInt8(ascii: "%"), 0..<0x20:
                true
            default: false
            }
        }
    }

    func surelyInside(_ written: String) -> Bool {
        var written = written
        let plain = written.withUTF8 { bytes -> Bool in
            // Not empty, not "." or "..": a name with a byte other than '.'.
            var onlyDots = true
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: ":"), UInt8(ascii: "\\"),
                    UInt8(ascii: "%"), 0..<0x20:
                    return false
                case UInt8(ascii: "."): continue
                default: onlyDots = false
                }
            }
            return !onlyDots || bytes.count > 2
        }
        return plain && (possibleSymlinks.isEmpty || !possibleSymlinks.contains(written))
    }
}
