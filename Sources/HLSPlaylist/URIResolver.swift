// Reference resolution, RFC 3986 §5.2, for URLs and for local file paths.
//
// A local path stays a path: "streams/master.m3u8" + "audio/index.m3u8" gives
// "streams/audio/index.m3u8", never a file:// URL, so locations read the way the user typed them.
//
// The base is a URI too. A path the user gave ("Stream #1/master.m3u8") is not one: each of its
// characters is part of a file name, while '#' would start a fragment and '?' a query. So a base
// is made explicitly, as a `ResolutionBase`: `.filePath` for what a user or a folder listing
// gave, `.uri` for a URL or a URI already resolved from a playlist; `.filePath` is encoded by
// `LocalFileName.uriReference(forPath:)`, whose inverse, `LocalFileName`, every reader applies.
// Reports decode locations back into file paths (CheckReport.namingFiles), so they read as typed.

import FileSystem

/// The base of a reference resolution, told apart where it is made (see the file comment).
package enum ResolutionBase: Sendable, Hashable {
    /// A path of the local file system, every character part of a name: a command-line
    /// argument, a path handed to the library, a file found by listing a folder.
    case filePath(String)
    /// A URI: an http(s) or `file://` URL, or a URI reference resolved against a playlist's URI
    /// (every `Playlist.uri`, `LoadedStream.rootURI` and resolved URI is one).
    case uri(String)

    /// What a user names a stream by: an `http`, `https` or `file` URL is a URI (write it
    /// encoded, as a URL is); anything else is a file path.
    package init(input: String) {
        let lowered = input.prefix(8).lowercased()
        let isURL = lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file://")
        self = isURL ? .uri(input) : .filePath(input)
    }

    /// The base as URI-reference text: what resolution, `Playlist.uri` and locations hold.
    package var uriReference: String {
        switch self {
        case .filePath(let path): LocalFileName.uriReference(forPath: path)
        case .uri(let uri): uri
        }
    }
}

/// Resolves URI references against the URI of their playlist (see the file comment).
package enum URIResolver {
    /// Resolves `reference` against `base`, a file path or a URI (see `ResolutionBase`).
    package static func resolve(_ reference: String, against base: ResolutionBase) -> String {
        resolve(reference, against: base.uriReference)
    }

    /// Resolves `reference` (a URI line or URI attribute) against the URI of the playlist that
    /// contains it (RFC 3986 §5.2.2). `base` is a URI reference: a file path the user gave goes
    /// through `resolve(_:against: .filePath(path))` instead.
    package static func resolve(_ reference: String, against base: String) -> String {
        resolvePlain(reference, against: base) ?? resolveComponents(reference, against: base)
    }

    /// §5.2.2 as the spec writes it: both URIs taken apart into their components.
    static func resolveComponents(_ reference: String, against base: String) -> String {
        let r = URIComponents(reference)
        if r.scheme != nil {
            var t = r
            t.path = removeDotSegments(r.path)
            return t.recomposed
        }
        let b = URIComponents(base)
        var t = URIComponents()
        t.scheme = b.scheme
        t.fragment = r.fragment
        if r.authority != nil {
            t.authority = r.authority
            t.path = removeDotSegments(r.path)
            t.query = r.query
        } else {
            t.authority = b.authority
            if r.path.isEmpty {
                t.path = b.path
                t.query = r.query ?? b.query
            } else {
                if r.path.hasPrefix("/") {
                    t.path = removeDotSegments(r.path)
                } else {
                    let merged = merge(basePath: b.path, hasAuthority: b.authority != nil, reference: r.path)
                    // A relative local path ("../x.m3u8" against "master.m3u8") keeps its
                    // leading "..": it is relative to the working directory, not a URL root.
                    let isRelativeLocal = b.scheme == nil && b.authority == nil && !merged.hasPrefix("/")
                    t.path = isRelativeLocal ? normalizeRelativePath(merged) : removeDotSegments(merged)
                }
                t.query = r.query
            }
        }
        return t.recomposed
    }

    /// The common case of §5.2.2, told and done over the bytes without taking either URI apart:
    /// a relative path without a "." or ".." segment, query or fragment ("seg0.ts",
    /// "audio/seg0.ts") — most URI lines of a playlist — against a base without query or
    /// fragment that is a path or a `file`, `http` or `https` URL with a path, without a dot
    /// segment in its folder. The target is the base's scheme and authority with the merged path
    /// (§5.2.3: the base's folder, then the reference), in which §5.2.4 has nothing to remove:
    /// the base's text up to the last '/' of its path, followed by the reference. nil for every
    /// other pair, which the general resolution handles.
    static func resolvePlain(_ reference: String, against base: String) -> String? {
        let resolved = reference.utf8.withContiguousStorageIfAvailable { reference -> String? in
            guard isPlainRelativePath(reference) else { return nil }
            let resolved = base.utf8.withContiguousStorageIfAvailable { base -> String? in
                guard let folderLength = plainFolderLength(base) else { return nil }
                return String(unsafeUninitializedCapacity: folderLength + reference.count) { out in
                    _ = out.initialize(from: base[..<folderLength])
                    _ = out[folderLength...].initialize(from: reference)
                    return folderLength + reference.count
                }
            }
            return resolved ?? nil
        }
        return resolved ?? nil
    }

    /// See `resolvePlain(_:against:)`.
    private static func isPlainRelativePath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, first != UInt8(ascii: "/") else { return false }
        // A ':' may make the first segment a scheme: left to the general resolution.
        for byte in bytes where byte == UInt8(ascii: ":") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
            return false
        }
        return !hasDotSegment(bytes)
    }

    /// The length of the base's text up to and including the last '/' of its path (0 for a
    /// relative path without a folder); nil for a base `resolvePlain(_:against:)` leaves to the
    /// general resolution.
    private static func plainFolderLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var hasColon = false
        for byte in bytes {
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return nil }
            if byte == UInt8(ascii: ":") { hasColon = true }
        }
        var pathStart = 0
        if hasColon {
            guard let scheme = ["file://", "http://", "https://"].first(where: { bytes.starts(with: $0.utf8) }),
                let slash = bytes[scheme.utf8.count...].firstIndex(of: UInt8(ascii: "/"))
            else { return nil }
            pathStart = slash
        } else if bytes.starts(with: "//".utf8) {
            return nil
        }
        guard let last = bytes[pathStart...].lastIndex(of: UInt8(ascii: "/")) else {
            return pathStart == 0 ? 0 : nil
        }
        return hasDotSegment(bytes[pathStart...last]) ? nil : last + 1
    }

    /// RFC 3986 §5.2.3.
    static func merge(basePath: String, hasAuthority: Bool, reference: String) -> String {
        if hasAuthority, basePath.isEmpty { return "/" + reference }
        // '/' is ASCII: found among the UTF-8 bytes, not Character by Character.
        guard let slash = basePath.utf8.lastIndex(of: UInt8(ascii: "/")) else { return reference }
        return String(basePath[...slash]) + reference
    }

    /// RFC 3986 §5.2.4, written over segments: the output is the same as the spec's loop.
    /// Over the UTF-8 bytes, with one offset per kept segment: a URI may have a million
    /// segments, and a string (or a 32-byte slice) per segment cost 75 bytes of memory per byte
    /// of URI.
    static func removeDotSegments(_ path: String) -> String {
        // A path without a "." or ".." segment comes out as it went in: told by one walk over
        // its bytes (most paths have a dot, in their file name's extension, and no such segment).
        guard hasDotSegment(path) else { return path }
        let absolute = path.hasPrefix("/")
        var output = SegmentStack(capacity: path.utf8.count)
        var trailingSlash = false
        let bytes = Array(path.utf8)
        forEachSegment(of: bytes, from: absolute ? 1 : 0) { segment, isLast in
            switch segment.count {
            case 1 where segment.first == UInt8(ascii: "."):
                trailingSlash = isLast
            case 2 where segment.first == UInt8(ascii: ".") && segment.last == UInt8(ascii: "."):
                output.pop()
                trailingSlash = isLast
            default:
                output.push(segment)
                trailingSlash = false
            }
        }
        var result = (absolute ? "/" : "") + output.text
        if trailingSlash, !result.hasSuffix("/") { result += "/" }
        return result
    }

    /// Whether `path` has a segment "." or "..", the only ones §5.2.4 changes.
    static func hasDotSegment(_ path: String) -> Bool {
        hasDotSegment(path.utf8)
    }

    /// `hasDotSegment(_:)` over a path's UTF-8 bytes.
    static func hasDotSegment(_ bytes: some Collection<UInt8>) -> Bool {
        // The current segment's length, and how many of its bytes are dots.
        var length = 0
        var dots = 0
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if length > 0, dots == length, length <= 2 { return true }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return length > 0 && dots == length && length <= 2
    }

    /// Like `removeDotSegments`, but keeps leading ".." of a relative path.
    static func normalizeRelativePath(_ path: String) -> String {
        // Without a "." or ".." segment every segment is kept as it is: the path comes out whole.
        guard hasDotSegment(path) else { return path }
        var output = SegmentStack(capacity: path.utf8.count)
        let bytes = Array(path.utf8)
        forEachSegment(of: bytes, from: 0) { segment, isLast in
            let isDot = segment.count == 1 && segment.first == UInt8(ascii: ".")
            let isDotDot = segment.count == 2 && segment.first == UInt8(ascii: ".") && segment.last == UInt8(ascii: ".")
            if isDot {
                if isLast { output.push([]) }
            } else if isDotDot {
                if !output.isEmpty, !output.lastIsDotDot {
                    output.pop()
                    if isLast { output.push([]) }
                } else {
                    output.push(segment)
                }
            } else {
                output.push(segment)
            }
        }
        return output.text
    }

    /// Calls `body` with each '/'-separated segment of `bytes` after `start` (empty ones too),
    /// and whether it is the last.
    static func forEachSegment(of bytes: [UInt8], from start: Int, _ body: (ArraySlice<UInt8>, Bool) -> Void) {
        var begin = start
        while true {
            let end = bytes[begin...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            body(bytes[begin..<end], end == bytes.endIndex)
            guard end < bytes.endIndex else { return }
            begin = end + 1
        }
    }
}

/// Path segments joined by '/', built in place: a push appends one, a pop removes the last.
struct SegmentStack {
    private var bytes: [UInt8] = []
    /// Where each kept segment starts in `bytes` (its '/' included), and whether it is "..".
    private var starts: [Int] = []
    private var dotDots: [Bool] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    var isEmpty: Bool { starts.isEmpty }
    var lastIsDotDot: Bool { dotDots.last ?? false }

    mutating func push(_ segment: ArraySlice<UInt8>) {
        starts.append(bytes.count)
        dotDots.append(segment.count == 2 && segment.allSatisfy { $0 == UInt8(ascii: ".") })
        if starts.count > 1 { bytes.append(UInt8(ascii: "/")) }
        bytes.append(contentsOf: segment)
    }

    mutating func pop() {
        guard let start = starts.popLast() else { return }
        dotDots.removeLast()
        bytes.removeSubrange(start...)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// The five components of a URI reference (RFC 3986 §3, appendix B).
struct URIComponents {
    var scheme: String?
    var authority: String?
    var path = ""
    var query: String?
    var fragment: String?

    init() {}

    init(_ text: String) {
        var rest = Substring(text)
        // Delimiters are ASCII: searched in the UTF-8 view, not Character by Character (a URI
        // of megabytes is parsed several times per check).
        if let hash = rest.firstIndex(ofASCII: UInt8(ascii: "#")) {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let q = rest.firstIndex(ofASCII: UInt8(ascii: "?")) {
            query = String(rest[rest.index(after: q)...])
            rest = rest[..<q]
        }
        if let colon = rest.firstIndex(ofASCII: UInt8(ascii: ":")) {
            let candidate = rest[..<colon]
            if let first = candidate.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first),
                candidate.unicodeScalars.allSatisfy({
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "+"
                        || $0 == "-" || $0 == "."
                }),
                // A Windows drive letter ("C:\…", "C:/…") is a path, not a scheme.
                candidate.count > 1
                    || !(rest[rest.index(after: colon)...].first.map { $0 == "/" || $0 == "\\" } ?? false)
            {
                scheme = String(candidate)
                rest = rest[rest.index(after: colon)...]
            }
        }
        if rest.utf8.starts(with: "//".utf8) {
            let afterSlashes = rest.dropFirst(2)
            if let slash = afterSlashes.firstIndex(ofASCII: UInt8(ascii: "/")) {
                authority = String(afterSlashes[..<slash])
                rest = afterSlashes[slash...]
            } else {
                authority = String(afterSlashes)
                rest = afterSlashes[afterSlashes.endIndex...]
            }
        }
        path = String(rest)
    }

    /// RFC 3986 §5.3.
    var recomposed: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }
}

extension Substring {
    /// The first occurrence of the ASCII `byte`, found in the contiguous UTF-8 bytes of a native
    /// string (a plain loop over memory, not the generic walk of the view's indices).
    fileprivate func firstIndex(ofASCII byte: UInt8) -> Index? {
        if let offset = utf8.withContiguousStorageIfAvailable({ $0.firstIndex(of: byte) }) {
            return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
        }
        return utf8.firstIndex(of: byte)
    }
}
