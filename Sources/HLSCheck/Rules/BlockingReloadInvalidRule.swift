package import HLSPlaylist

package struct BlockingReloadInvalidRule: LiveRule {
    package static let description = RuleDescription.live(
        id: "blocking-reload-invalid", name: "Blocking reload answered wrongly", defaultSeverity: .error,
        summary:
            "A server that says CAN-BLOCK-RELOAD=YES answered _HLS_msn or _HLS_part before the playlist held the segment or part asked for, with a delta update, with an error, did not answer _HLS_part alone with 400, or did not ignore the directives on an ended playlist.",
        rationale:
            "bis-22 §6.2.5.2: a low-latency client asks for the next segment or part and the server holds the request until the playlist has it, then sends the entire playlist; a part index past a segment's last part means the next segment's first part; _HLS_part without _HLS_msn is a bad request (400); once the playlist has EXT-X-ENDLIST the directives are ignored. A server that answers early makes the client poll; one that never answers stalls it.",
        specItems: [
            .bis(
                "6.2.5.2", .must, "A request with _HLS_msn is held until the playlist holds that media sequence number."
            ),
            .bis("6.2.5.2", .must, "A request with _HLS_msn and _HLS_part is held until the playlist holds that part."),
            .bis("6.2.5.2", .must, "A Part Index past a segment's last part asks for part 0 of the next segment."),
            .bis("6.2.5.2", .must, "A blocking reload answers with the entire playlist."),
            .bis("6.2.5.2", .must, "A playlist with EXT-X-ENDLIST ignores _HLS_msn and _HLS_part."),
            .bis("6.2.5.2", .must, "_HLS_part without _HLS_msn is answered 400."),
        ])

    /// Every watched playlist the probe asks about is judged, a VOD one with
    /// EXT-X-SERVER-CONTROL included.
    package static func memory(watching first: MediaPlaylist, at uri: String) -> Void? { () }

    package static func judge(_ exchange: DirectiveExchange, memory: inout Void) -> [Finding] {
        let asked = exchange.asked, media = exchange.reply?.media
        // Why a blocking request did not bring a playlist, as the messages say it.
        let failure =
            media != nil ? nil : exchange.succeeded ? "with something that is not a media playlist" : exchange.described
        var messages: [String] = []
        switch exchange.request {
        case .blockingReloadOfEndedPlaylist where !exchange.succeeded:
            messages.append(
                "\(asked) was answered \(exchange.described); the playlist has EXT-X-ENDLIST, so _HLS_msn must be ignored and the playlist served (bis-22 §6.2.5.2)"
            )
        case .nextSegment(let next):
            if let failure {
                messages.append(
                    "\(asked) was answered \(failure); a server with CAN-BLOCK-RELOAD=YES holds a request for the next segment and then serves the playlist (bis-22 §6.2.5.2)"
                )
            } else if let media {
                if media.skippedSegments != nil {
                    messages.append(
                        "\(asked) was answered with a delta update (EXT-X-SKIP); a blocking reload without _HLS_skip returns the entire playlist (bis-22 §6.2.5.2)"
                    )
                } else if media.lastMediaSequence < next {
                    messages.append(
                        "\(asked) was answered before the playlist held segment \(next) (its last is \(media.lastMediaSequence)); the server must hold the request until it does (bis-22 §6.2.5.2)"
                    )
                }
            }
        case .nextPart(let wanted):
            if let failure {
                messages.append(
                    "\(asked) was answered \(failure); a server with CAN-BLOCK-RELOAD=YES holds a request for the next part and then serves the playlist (bis-22 §6.2.5.2)"
                )
            } else if let media, media.skippedSegments == nil, !holds(media, wanted) {
                messages.append(
                    "\(asked) was answered before the playlist held part \(wanted.index) of segment \(wanted.sequence); the server must hold the request until it does (bis-22 §6.2.5.2)"
                )
            }
        case .partBeyondLast(let writing):
            // An index past a segment's last part asks for part 0 of the next segment.
            if let media, media.skippedSegments == nil, !holds(media, PartPosition(sequence: writing + 1, index: 0)) {
                messages.append(
                    "\(asked) was answered before the playlist held part 0 of segment \(writing + 1); a part index past a segment's last part means the first part of the next segment (bis-22 §6.2.5.2)"
                )
            }
        case .partWithoutMediaSequence where exchange.answer.status != 400:
            messages.append(
                "\(asked) was answered \(exchange.described); _HLS_part without _HLS_msn must be answered 400 Bad Request (bis-22 §6.2.5.2)"
            )
        default:
            break
        }
        return messages.map { Finding($0, at: SourceLocation(uri: exchange.uri, line: 0)) }
    }

    /// Whether `media` holds `part`, or a later one.
    static func holds(_ media: MediaPlaylist, _ part: PartPosition) -> Bool {
        if media.lastMediaSequence >= part.sequence + 1 { return true }
        guard let last = media.lastPart else { return media.lastMediaSequence >= part.sequence }
        return (last.sequence, last.index) >= (part.sequence, part.index)
    }
}
