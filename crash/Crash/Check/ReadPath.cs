using System.Text.Json.Serialization;

namespace Crash.Check;

/// <summary>
/// What the path a queue run reads through guarantees end to end, an input of the check: which
/// losses of acknowledged messages it may account for, and whether a message may come twice.
/// </summary>
[JsonConverter(typeof(JsonStringEnumConverter<ReadPath>))]
public enum ReadPath
{
    /// <summary>
    /// GET /read: the store takes the message off the queue before the answer is written, so a read
    /// whose answer was lost (in doubt) took a message nobody received. Such a message is lost and
    /// counted as lost; the path allows losing as many as its reads in doubt.
    /// </summary>
    [JsonStringEnumMemberName("at-most-once")]
    AtMostOnce,

    /// <summary>
    /// A read that leases a message and deletes it only once the reader confirms: a read lost in
    /// flight hands its message out again. No acknowledged message may be lost on a fault the store
    /// promises to survive; a message may come twice.
    /// </summary>
    [JsonStringEnumMemberName("at-least-once")]
    AtLeastOnce,
}
