//! Ethernet (with 802.1Q/802.1ad tags) → IPv4 → UDP: find a frame's UDP payload.

/// Where a frame's UDP payload sits, or why the frame has none.
#[derive(Debug, PartialEq, Eq)]
pub enum Udp {
    /// Byte range of the payload within the frame.
    Payload(std::ops::Range<usize>),
    NotUdp,
}

const ETHERTYPE_IPV4: u16 = 0x0800;
const ETHERTYPE_VLAN: u16 = 0x8100;
const ETHERTYPE_QINQ: u16 = 0x88a8;
const IP_PROTOCOL_UDP: u8 = 17;

fn be16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

/// Anything that is not a whole, unfragmented IPv4 UDP datagram is `NotUdp`:
/// such packets are counted and skipped, never fatal.
pub fn udp_payload(frame: &[u8]) -> Udp {
    udp_payload_checked(frame).map_or(Udp::NotUdp, Udp::Payload)
}

fn udp_payload_checked(frame: &[u8]) -> Option<std::ops::Range<usize>> {
    let mut at = 12;
    let mut ethertype = be16(frame, at)?;
    while ethertype == ETHERTYPE_VLAN || ethertype == ETHERTYPE_QINQ {
        at += 4;
        ethertype = be16(frame, at)?;
    }
    if ethertype != ETHERTYPE_IPV4 {
        return None;
    }
    let ip = at + 2;
    let version_ihl = *frame.get(ip)?;
    let header_len = usize::from(version_ihl & 0x0f) * 4;
    if version_ihl >> 4 != 4 || header_len < 20 || *frame.get(ip + 9)? != IP_PROTOCOL_UDP {
        return None;
    }
    let more_fragments_or_offset = be16(frame, ip + 6)? & 0x3fff;
    if more_fragments_or_offset != 0 {
        return None;
    }
    // Bound by the IP total length: Ethernet pads short frames.
    let ip_end = (ip + usize::from(be16(frame, ip + 2)?)).min(frame.len());
    let udp = ip + header_len;
    let udp_len = usize::from(be16(frame, udp + 4)?);
    if udp_len < 8 || udp + udp_len > ip_end {
        return None;
    }
    Some(udp + 8..udp + udp_len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(vlan_tags: usize, payload: &[u8]) -> Vec<u8> {
        let mut f = vec![0u8; 12];
        for _ in 0..vlan_tags {
            f.extend_from_slice(&[0x81, 0x00, 0x00, 0x05]);
        }
        f.extend_from_slice(&ETHERTYPE_IPV4.to_be_bytes());
        let total = (20 + 8 + payload.len()) as u16;
        f.extend_from_slice(&[0x45, 0]);
        f.extend_from_slice(&total.to_be_bytes());
        f.extend_from_slice(&[0, 0, 0x40, 0, 64, IP_PROTOCOL_UDP, 0, 0]);
        f.extend_from_slice(&[10, 0, 0, 1, 233, 215, 21, 4]);
        f.extend_from_slice(&[0x28, 0x83, 0x28, 0x83]);
        f.extend_from_slice(&((8 + payload.len()) as u16).to_be_bytes());
        f.extend_from_slice(&[0, 0]);
        f.extend_from_slice(payload);
        f
    }

    #[test]
    fn finds_payload_with_and_without_vlan_tags() {
        for tags in 0..3 {
            let f = frame(tags, b"hello");
            let Udp::Payload(range) = udp_payload(&f) else {
                panic!("no payload with {tags} tags")
            };
            assert_eq!(&f[range], b"hello");
        }
    }

    #[test]
    fn ethernet_padding_is_not_payload() {
        let mut f = frame(0, b"hi");
        f.extend_from_slice(&[0; 20]);
        let Udp::Payload(range) = udp_payload(&f) else { panic!() };
        assert_eq!(&f[range], b"hi");
    }

    #[test]
    fn rejects_non_udp_fragments_and_short_frames() {
        let mut tcp = frame(0, b"x");
        tcp[14 + 9] = 6;
        assert_eq!(udp_payload(&tcp), Udp::NotUdp);
        let mut fragment = frame(0, b"x");
        fragment[14 + 6] = 0x20;
        assert_eq!(udp_payload(&fragment), Udp::NotUdp);
        assert_eq!(udp_payload(&frame(0, b"x")[..30]), Udp::NotUdp);
        assert_eq!(udp_payload(&[]), Udp::NotUdp);
    }
}
