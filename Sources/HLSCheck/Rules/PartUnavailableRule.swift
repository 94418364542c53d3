package import HLSPlaylist

package struct PartUnavailableRule: LiveRule {
    package static let description = RuleDescription.live(
        id: "part-unavailable", name: "Listed part or hinted resource not served", defaultSeverity: .error,
        summary:
            "A partial segment the playlist lists without GAP=YES, or the resource its EXT-X-PRELOAD-HINT names, was answered with an error (--live-duration requests them once the watch is over, unless --playlist-only).",
        rationale:
            "A low-latency client fetches each part the moment the playlist lists it, and requests the hinted part before it is listed, expecting the server to hold that request until the part is ready (bis-22 §6.2.6). A part that is not there must say GAP=YES (§4.4.4.9, §6.2.1); a 404 instead stalls the client at the live edge.",
        specItems: [
            .bis("4.4.4.9", .must, "A partial segment that cannot be fetched is marked GAP=YES."),
            .bis("6.2.1", .must, "A Partial segment can be fetched as soon as it is in the playlist."),
            .bis(
                "6.2.1", .must,
                "Gap parts carry GAP=YES, as gap segments carry EXT-X-GAP: a listed part without it that cannot be fetched is reported."
            ),
            .bis("6.2.6", .must, "A hinted resource is available to requests as soon as its hint is in the playlist."),
        ])

    /// Low-latency playlists are judged: the probe asks for their parts and hinted resources.
    package static func memory(watching first: MediaPlaylist, at uri: String) -> Void? { () }

    package static func judge(_ exchange: DirectiveExchange, memory: inout Void) -> [Finding] {
        guard !exchange.succeeded else { return [] }
        switch exchange.request {
        case .listedPart(let part):
            return [
                Finding(
                    "partial segment \(part.uri) is listed without GAP=YES but was answered \(exchange.described); a part must be there as soon as the playlist lists it, or be marked GAP=YES (bis-22 §4.4.4.9, §6.2.1)",
                    at: SourceLocation(uri: exchange.uri, line: part.line))
            ]
        case .hintedResource(let hinted, let line):
            return [
                Finding(
                    "preload hint \(hinted) was answered \(exchange.described); a hinted resource can be requested as soon as the hint is in the playlist, the server holding the request until it is ready (bis-22 §6.2.6)",
                    at: SourceLocation(uri: exchange.uri, line: line))
            ]
        default:
            return []
        }
    }
}
