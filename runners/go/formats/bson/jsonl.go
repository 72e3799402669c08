package bson

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"shootout/codec"
	"shootout/formats/dynamic"
	"shootout/workload"
)

// Document is the driver's ordered document model, bson.D (every member in
// order, duplicate keys included) with bson.A for arrays and Go's number
// types (dynamic.GoNumber) for numbers. A BSON message is a document: a
// record that is not a JSON object has no BSON form, and is the encoder's
// error.
var Document = &workload.JSONModel{Name: "bson.D", Convert: func(v *workload.JSONValue) (any, error) {
	if v.Kind != workload.JSONObject {
		return nil, fmt.Errorf("a BSON document is an object; this record is a JSON %s", v.Kind)
	}
	return document(v), nil
}}

func document(v *workload.JSONValue) bson.D {
	d := make(bson.D, len(v.Items))
	for i := range v.Items {
		d[i] = bson.E{Key: v.Keys[i], Value: model(&v.Items[i])}
	}
	return d
}

func model(v *workload.JSONValue) any {
	switch v.Kind {
	case workload.JSONNull:
		return nil
	case workload.JSONBool:
		return v.Bool()
	case workload.JSONString:
		return v.Text
	case workload.JSONArray:
		a := make(bson.A, len(v.Items))
		for i := range v.Items {
			a[i] = model(&v.Items[i])
		}
		return a
	case workload.JSONObject:
		return document(v)
	}
	return dynamic.GoNumber(v)
}

// Jsonl is the driver's document model on the jsonl workload: bson.Marshal
// of the record's bson.D, and bson.Unmarshal into a bson.D (nested
// documents bson.D, arrays bson.A) walked into the sink.
func Jsonl() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
	return dynamic.New(dynamic.Library{Model: Document, Append: New().Append, Delimit: documentLength,
		Read: func(body []byte, sink *workload.JSONSink) error {
			var d bson.D
			if err := bson.Unmarshal(body, &d); err != nil {
				return err
			}
			return walkDocument(d, sink)
		}})
}

func walkDocument(d bson.D, sink *workload.JSONSink) error {
	sink.BeginObject()
	for _, e := range d {
		sink.Key(e.Key)
		if err := walk(e.Value, sink); err != nil {
			return err
		}
	}
	sink.EndObject()
	return nil
}

// walk feeds one decoded BSON value; a BSON type JSON has no value of
// (binary, ObjectID, a date, decimal128) is an error naming it.
func walk(v any, sink *workload.JSONSink) error {
	switch v := v.(type) {
	case bson.D:
		return walkDocument(v, sink)
	case bson.A:
		sink.BeginArray()
		for _, e := range v {
			if err := walk(e, sink); err != nil {
				return err
			}
		}
		sink.EndArray()
	case nil:
		sink.Null()
	case bool:
		sink.Bool(v)
	case string:
		sink.String(v)
	case int32:
		sink.Int(int64(v))
	case int64:
		sink.Int(v)
	case float64:
		sink.Float(v)
	default:
		return fmt.Errorf("a BSON %T is not a JSON value", v)
	}
	return nil
}
