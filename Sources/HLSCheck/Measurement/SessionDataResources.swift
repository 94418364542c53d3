import FoundationEssentials
import HLSPlaylist
import MediaInspection
import StreamSources

/// The resource an EXT-X-SESSION-DATA URI names, read for session-data-format-mismatch
/// (bis-22 §4.4.6.4: it has the FORMAT the tag declares, JSON by default).
package struct SessionDataResource: Sendable, Hashable {
    /// The line of the EXT-X-SESSION-DATA tag in the multivariant playlist.
    package var line: Int
    /// DATA-ID, for messages.
    package var dataID: String
    /// The URI as written.
    package var uri: String
    /// The bytes read; nil when the read failed.
    package var bytes: [UInt8]?
    /// Why it could not be read; nil when it was.
    package var failure: String?
}

extension SessionDataResource {
    /// The JSON resources the multivariant playlist of `loaded` names (FORMAT=RAW is any
    /// bytes: nothing to check), each read once through `source`. A local URI outside
    /// `streamRoot`, or any local URI of a remote stream, is not read (the same confinement as
    /// playlists and segments; docs/security.md).
    static func read(
        _ loaded: LoadedStream, source: any SegmentByteSource, streamRoot: StreamRoot?
    ) async -> [SessionDataResource] {
        guard let multivariant = loaded.root.multivariant else { return [] }
        let remoteRoot = LocalPath.path(of: loaded.rootURI) == nil
        var resources: [SessionDataResource] = []
        var read: [String: Result<[UInt8], InputReadError>] = [:]
        for data in multivariant.sessionData {
            guard let uri = data.uri, (data.format ?? "JSON") == "JSON" else { continue }
            let resolved = URIResolver.resolve(uri, against: loaded.root.uri)
            let local = LocalPath.path(of: resolved) != nil
            if local && (remoteRoot || streamRoot.map { !$0.contains(resolved) } == true) { continue }
            let outcome: Result<[UInt8], InputReadError>
            if let known = read[resolved] {
                outcome = known
            } else {
                do {
                    outcome = .success(try await source.read(resolved, range: nil))
                } catch let error as InputReadError {
                    outcome = .failure(error)
                } catch {
                    outcome = .failure(InputReadError(uri: resolved, reason: "cannot be read"))
                }
                read[resolved] = outcome
            }
            var resource = SessionDataResource(line: data.line, dataID: data.dataID ?? "", uri: uri)
            switch outcome {
            case .success(let bytes): resource.bytes = bytes
            case .failure(let error): resource.failure = error.reason
            }
            resources.append(resource)
        }
        return resources
    }
}

/// RFC 8259 JSON text, as JSONDecoder (FoundationEssentials) reads it.
enum JSONText {
    /// nil when `bytes` are one JSON text, else why not, in a few words.
    static func problem(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONDecoder().decode(AnyJSONValue.self, from: Data(bytes))
            return nil
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = context.underlyingError.map { String(describing: $0) } ?? ""
            let detail = underlying.isEmpty ? context.debugDescription : underlying
            return String(detail.prefix(200))
        } catch {
            return String(String(describing: error).prefix(200))
        }
    }

    /// Any JSON value: what a decode of a whole document needs to accept it all.
    private struct AnyJSONValue: Decodable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { return }
            if (try? container.decode(Bool.self)) != nil { return }
            if (try? container.decode(Double.self)) != nil { return }
            if (try? container.decode(String.self)) != nil { return }
            if (try? container.decode([AnyJSONValue].self)) != nil { return }
            _ = try container.decode([String: AnyJSONValue].self)
        }
    }
}
