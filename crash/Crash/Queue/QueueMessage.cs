using System.Text.Json;
using System.Text.Json.Nodes;

namespace Crash.Queue;

/// <summary>
/// The body a crash run enqueues, <c>{"crash":"&lt;run id&gt;","seq":n}</c>: the run id marks the
/// run's own messages among any others on the queue (the queues are shared), the sequence number
/// names the write.
/// </summary>
public static class QueueMessage
{
    public static byte[] Body(string runId, long seq) => JsonSerializer.SerializeToUtf8Bytes(new JsonObject { ["crash"] = runId, ["seq"] = seq });

    /// <summary>
    /// What a <c>/read/{queue}</c> answer (<c>{"queue":…,"id":…,"read_message":…}</c>) carries: the
    /// sequence number of one of this run's messages, or null for any other message (foreign).
    /// </summary>
    public static long? OwnSeq(byte[] answer, string runId)
    {
        try
        {
            var message = JsonNode.Parse(answer)?["read_message"];
            if (message is not JsonObject body || body["crash"]?.GetValueKind() != JsonValueKind.String) return null;
            if (body["crash"]!.GetValue<string>() != runId) return null;
            return body["seq"] is JsonValue seq && seq.TryGetValue<long>(out var n) ? n : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
