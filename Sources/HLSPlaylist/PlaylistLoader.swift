// Loading a stream: the root playlist and every media playlist it references, each read once.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where playlist bytes come from. `uri` is already resolved (a path or a URL string).
public protocol PlaylistSource: Sendable {
    func read(_ uri: String) async throws -> [UInt8]
}

/// A playlist could not be read: the URI and the operating system's reason.
public struct PlaylistReadError: Error, Sendable, Hashable, CustomStringConvertible {
    public var uri: String
    public var reason: String

    public init(uri: String, reason: String) {
        self.uri = uri
        self.reason = reason
    }

    public var description: String { "\(uri): \(reason)" }
}

/// Playlists larger than this are refused (a playlist of a 10-hour stream is a few MiB).
public let maximumPlaylistSize = 16 * 1024 * 1024

/// Reads local files. Relative paths are relative to the working directory.
public struct LocalFileSource: PlaylistSource {
    public var maximumSize: Int

    public init() {
        self.maximumSize = maximumPlaylistSize
    }

    public init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    public func read(_ uri: String) async throws -> [UInt8] {
        try Self.readFile(uri, maximumSize: maximumSize)
    }

    static func readFile(_ path: String, maximumSize: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw PlaylistReadError(uri: path, reason: Self.reason(errno)) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                throw PlaylistReadError(uri: path, reason: "Is a directory")
            }
            if Int(info.st_size) > maximumSize {
                throw PlaylistReadError(uri: path, reason: "playlist is \(info.st_size) bytes, larger than the \(maximumSize / 1_048_576) MiB limit")
            }
        }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PlaylistReadError(uri: path, reason: Self.reason(errno))
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
            if result.count > maximumSize {
                throw PlaylistReadError(uri: path, reason: "playlist is larger than the \(maximumSize / 1_048_576) MiB limit")
            }
        }
        return result
    }

    static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// `read(2)`, named apart from `PlaylistSource.read`.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// A referenced playlist that could not be loaded, located at the line that references it.
public struct LoadFailure: Sendable, Hashable {
    public var uri: String
    public var referencedFrom: SourceLocation
    public var reason: String

    public init(uri: String, referencedFrom: SourceLocation, reason: String) {
        self.uri = uri
        self.referencedFrom = referencedFrom
        self.reason = reason
    }
}

/// A root playlist and the media playlists it references.
public struct LoadedStream: Sendable {
    public var rootURI: String
    public var root: Playlist
    /// The playlists the root references, keyed by resolved URI. Empty when the root is itself a
    /// media playlist (it is only in `root`, so nothing is reported twice).
    public var mediaPlaylists: [String: Playlist]
    public var failures: [LoadFailure]

    public init(rootURI: String, root: Playlist, mediaPlaylists: [String: Playlist], failures: [LoadFailure]) {
        self.rootURI = rootURI
        self.root = root
        self.mediaPlaylists = mediaPlaylists
        self.failures = failures
    }

    public func resolve(_ reference: String) -> String { URIResolver.resolve(reference, against: rootURI) }

    public func resolvedURI(of variant: VariantStream) -> String { resolve(variant.uri) }
    public func resolvedURI(of variant: IFrameVariantStream) -> String { resolve(variant.uri) }
    public func resolvedURI(of rendition: Rendition) -> String? { rendition.uri.map(resolve) }

    public func playlist(for variant: VariantStream) -> Playlist? { mediaPlaylists[resolvedURI(of: variant)] }
    public func playlist(for variant: IFrameVariantStream) -> Playlist? { mediaPlaylists[resolvedURI(of: variant)] }
    public func playlist(for rendition: Rendition) -> Playlist? { resolvedURI(of: rendition).flatMap { mediaPlaylists[$0] } }

    /// The failure of a variant's playlist, if it could not be loaded.
    public func failure(for uri: String) -> LoadFailure? { failures.first { $0.uri == uri } }

    /// Every playlist's problems, root first, then media playlists in URI order.
    public var allProblems: [PlaylistProblem] {
        var result = root.problems
        for key in mediaPlaylists.keys.sorted() {
            result += mediaPlaylists[key]?.problems ?? []
        }
        return result
    }
}

/// Walks a multivariant playlist to every media playlist it references (variants, EXT-X-MEDIA
/// renditions with a URI, I-frame playlists), each loaded once, concurrently.
public struct PlaylistLoader: Sendable {
    public var source: any PlaylistSource
    public var maximumSize: Int

    public init(source: any PlaylistSource, maximumSize: Int = maximumPlaylistSize) {
        self.source = source
        self.maximumSize = maximumSize
    }

    /// Throws `PlaylistReadError` only when the root itself cannot be read.
    public func load(_ uri: String) async throws -> LoadedStream {
        let bytes: [UInt8]
        do {
            bytes = try await source.read(uri)
        } catch let error as PlaylistReadError {
            throw error
        } catch {
            throw PlaylistReadError(uri: uri, reason: String(describing: error))
        }
        if bytes.count > maximumSize {
            throw PlaylistReadError(uri: uri, reason: "playlist is larger than the \(maximumSize / 1_048_576) MiB limit")
        }
        let root = PlaylistParser.parse(bytes, uri: uri, queryParameters: Self.queryParameters(of: uri))
        guard let master = root.multivariant else {
            return LoadedStream(rootURI: uri, root: root, mediaPlaylists: [:], failures: [])
        }

        // Each resolved URI once, remembered with its first reference.
        var references: [(uri: String, from: SourceLocation)] = []
        var seen: Set<String> = []
        func add(_ reference: String, _ location: SourceLocation) {
            let resolved = URIResolver.resolve(reference, against: uri)
            if seen.insert(resolved).inserted { references.append((resolved, location)) }
        }
        for v in master.variants { add(v.uri, root.location(line: v.uriLine, column: 1)) }
        for r in master.renditions {
            if let u = r.uri { add(u, root.location(line: r.line, column: r.attributes["URI"]?.column ?? 0)) }
        }
        for v in master.iFrameVariants where !v.uri.isEmpty {
            add(v.uri, root.location(line: v.line, column: v.attributes["URI"]?.column ?? 0))
        }

        let source = self.source
        let limit = maximumSize
        let imported = root.variables
        var playlists: [String: Playlist] = [:]
        var failures: [LoadFailure] = []
        await withTaskGroup(of: (Int, Result<Playlist, PlaylistReadError>).self) { group in
            for (index, reference) in references.enumerated() {
                group.addTask {
                    do {
                        let bytes = try await source.read(reference.uri)
                        guard bytes.count <= limit else {
                            return (index, .failure(PlaylistReadError(uri: reference.uri, reason: "playlist is larger than the \(limit / 1_048_576) MiB limit")))
                        }
                        return (index, .success(PlaylistParser.parse(
                            bytes, uri: reference.uri, importedVariables: imported,
                            queryParameters: Self.queryParameters(of: reference.uri))))
                    } catch let error as PlaylistReadError {
                        return (index, .failure(error))
                    } catch {
                        return (index, .failure(PlaylistReadError(uri: reference.uri, reason: String(describing: error))))
                    }
                }
            }
            for await (index, result) in group {
                let reference = references[index]
                switch result {
                case .success(let playlist):
                    playlists[reference.uri] = playlist
                case .failure(let error):
                    failures.append(LoadFailure(uri: reference.uri, referencedFrom: reference.from, reason: error.reason))
                }
            }
        }
        failures.sort { ($0.referencedFrom.line, $0.referencedFrom.column) < ($1.referencedFrom.line, $1.referencedFrom.column) }
        return LoadedStream(rootURI: uri, root: root, mediaPlaylists: playlists, failures: failures)
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
