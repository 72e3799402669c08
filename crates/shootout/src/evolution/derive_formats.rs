//! The derive-based formats: the Rust type is the schema, and the bytes hold
//! the fields in declaration order with no names, numbers or tags. None of
//! these libraries documents rules for changing a type (speedy has one
//! attribute for a field appended at the end), so each v2 is the plain changed
//! type, as a user would write it.

use bincode::config::{self, Configuration, Limit};

use super::versions::{Archivable, library};
use crate::format::features;

/// bincode's documented guard against a corrupt length asking for a huge
/// allocation; far above any record here.
const BINCODE_LIMIT: usize = 1 << 20;

fn bincode_config() -> Configuration<config::LittleEndian, config::Varint, Limit<BINCODE_LIMIT>> {
    config::standard().with_limit::<BINCODE_LIMIT>()
}

library!(
    BINCODE = Bincode {
        name: "bincode",
        family: features::BINCODE.family,
        rules: "bincode 2 native derives, standard configuration (varint integers, zigzag for \
            signed). bincode documents no evolution rules: v2 is the plain changed type. \
            decode_from_slice reports the bytes it read and leaves any after the record \
            unread; one record per buffer here, so trailing bytes go unnoticed.",
        encode: |value| Ok(bincode::encode_to_vec(value, bincode_config())?),
        decode: |bytes| Ok(bincode::decode_from_slice(bytes, bincode_config())?.0),
    }
);

library!(
    WINCODE = Wincode {
        name: "wincode",
        family: features::BINCODE.family,
        rules: "wincode derives (SchemaWrite/SchemaRead), default configuration: bincode 1's \
            layout (fixed-width integers, u64 lengths), unlike the bincode row's varint. wincode \
            documents no evolution rules: v2 is the plain changed type. deserialize leaves \
            any bytes after the record unread; one record per buffer here, so trailing bytes \
            go unnoticed.",
        encode: |value| Ok(wincode::serialize(value)?),
        decode: |bytes| Ok(wincode::deserialize(bytes)?),
    }
);

library!(
    MUSLI = Musli {
        name: "musli",
        family: features::MUSLI.family,
        rules: "musli derives (Encode/Decode), the codec's encoding for record types: storage \
            with fixed-width integers in native byte order, structs not packed (each field \
            behind its index, as the codec's user records; #[musli(packed)] is kept for the iex \
            records, which have no Option). musli documents #[musli(default)] for a field \
            missing in storage and skipping unknown fields only in wire and descriptive; no \
            musli attribute is set, so v2 is the plain changed type. from_slice requires the \
            whole buffer to be consumed, so trailing bytes are an error.",
        encode: |value| Ok(crate::format::musli::ENCODING.to_vec(value)?),
        decode: |bytes| Ok(crate::format::musli::ENCODING.from_slice(bytes)?),
    }
);

/// A Fory instance that writes and reads version `T` under the one name every
/// version shares. Compatible mode, Fory's documented mode for changing types
/// (type metadata in the bytes, fields matched by name): the codec's
/// schema-consistent mode fails any change on its struct hash.
fn fory_for<T: super::versions::Record>() -> anyhow::Result<fory::Fory> {
    let mut fory = fory::Fory::builder().xlang(true).compatible(true).track_ref(false).build();
    fory.register_by_name::<T>("shootout.User")?;
    Ok(fory)
}

library!(
    ZEROMPK = Zerompk {
        name: "msgpack-zerompk",
        family: features::MESSAGEPACK.family,
        rules: "zerompk derives (ToMessagePack/FromMessagePack), structs as arrays as in the \
            codec: fields in order, no names. zerompk documents evolution only for \
            #[msgpack(map)] structs (#[msgpack(default)] for a missing key, \
            allow_unknown_fields); an array has no names, so v2 is the plain changed type, and \
            the reader checks the array's length. from_msgpack ignores bytes after the record.",
        encode: |value| Ok(zerompk::to_msgpack_vec(value)?),
        decode: |bytes| Ok(zerompk::from_msgpack(bytes)?),
    }
);

library!(
    FORY = Fory {
        name: "fory",
        family: features::FORY.family,
        rules: "fory derives (ForyStruct), xlang in compatible mode, Fory's documented mode for \
            evolution: each record carries its type's field metadata and the reader matches \
            fields by name, filling missing ones with defaults and skipping unknown ones. The \
            codec (like the JVM's) is schema-consistent instead, which fails any change on its \
            struct hash check. No fory attribute is set, so v2 is the plain changed type. \
            deserialize reads one object and leaves any bytes after it unread; one record per \
            buffer here, so trailing bytes go unnoticed.",
        encode: |value| Ok(fory_for::<T>()?.serialize(value)?),
        decode: |bytes| Ok(fory_for::<T>()?.deserialize(bytes)?),
    }
);

library!(
    POSTCARD = Postcard {
        name: "postcard",
        family: features::POSTCARD.family,
        rules: "serde, postcard 1.x wire format (fields in order, no names; varint integers, zigzag \
            for signed). postcard documents no evolution rules; v2 is the same serde type the \
            named-field formats use (#[serde(default)] on the added Option, alias on the \
            rename), attributes postcard cannot act on with no names or field count on the \
            wire. from_bytes ignores bytes after the record.",
        encode: |value| Ok(postcard::to_stdvec(value)?),
        decode: |bytes| Ok(postcard::from_bytes(bytes)?),
    }
);

library!(
    BORSH = Borsh {
        name: "borsh",
        family: features::BORSH.family,
        rules: "borsh derives: fixed-width little-endian integers, u32-prefixed strings, fields in \
            order. The borsh specification defines one layout per type and no evolution \
            rules: v2 is the plain changed type. from_slice rejects bytes left after the record.",
        encode: |value| Ok(borsh::to_vec(value)?),
        decode: |bytes| Ok(borsh::from_slice(bytes)?),
    }
);

library!(
    SPEEDY = Speedy {
        name: "speedy",
        family: features::SPEEDY.family,
        rules: "speedy derives, little-endian: fixed-width integers, u32-prefixed strings, fields in \
            order. speedy's one documented evolution aid, #[speedy(default_on_eof)], is on the \
            appended email (a reader that runs out of bytes there takes the default); every \
            other v2 is the plain changed type. read_from_buffer ignores bytes after the \
            record.",
        encode: |value| Ok(value.write_to_vec()?),
        decode: |bytes| Ok(speedy::Readable::read_from_buffer(bytes)?),
    }
);

library!(
    BITCODE = Bitcode {
        name: "bitcode",
        family: features::BITCODE.family,
        rules: "bitcode native derives (not serde). bitcode documents no evolution rules (its own \
            format is not stable across major versions either): v2 is the plain changed type. \
            decode rejects bytes left after the record.",
        encode: |value| Ok(bitcode::encode(value)),
        decode: |bytes| Ok(bitcode::decode(bytes)?),
    }
);

library!(
    RKYV = Rkyv {
        name: "rkyv",
        family: features::RKYV.family,
        rules: "rkyv derives, archives validated with bytecheck (rkyv::from_bytes). rkyv documents \
            no schema evolution (the archived layout is the type's): v2 is the plain changed \
            type.",
        encode: |value| Ok(value.archive()?.into_vec()),
        decode: |bytes| Ok(Archivable::unarchive(bytes)?),
    }
);
