using System.Text.Json;
using System.Text.Json.Serialization;

namespace IntegrationService.Queues;

/// <summary>201 answer of <c>/write/{queue}</c>, field names as in the original study.</summary>
public sealed record QueueWriteResponse(
    [property: JsonPropertyName("queue")] string Queue,
    [property: JsonPropertyName("action")] string Action,
    [property: JsonPropertyName("created_message")] bool CreatedMessage,
    [property: JsonPropertyName("id")] long Id);

/// <summary>
/// 200 answer of <c>/read/{queue}</c>: the message as it was written. Documents the shape for
/// Swagger; <see cref="QueueReadResult"/> writes it without parsing the stored message.
/// </summary>
public sealed record QueueReadResponse(
    [property: JsonPropertyName("queue")] string Queue,
    [property: JsonPropertyName("action")] string Action,
    [property: JsonPropertyName("id")] long Id,
    [property: JsonPropertyName("read_message")] JsonElement ReadMessage);

/// <summary>
/// 200 answer of <c>POST /read/{queue}</c>: the message, its receipt for <c>/ack</c> and <c>/nack</c>,
/// and the lease granted. Documents the shape; <see cref="QueueReadResult"/> writes it.
/// </summary>
public sealed record QueueLeaseResponse(
    [property: JsonPropertyName("queue")] string Queue,
    [property: JsonPropertyName("action")] string Action,
    [property: JsonPropertyName("id")] long Id,
    [property: JsonPropertyName("receipt")] string Receipt,
    [property: JsonPropertyName("lease_ms")] long LeaseMs,
    [property: JsonPropertyName("read_message")] JsonElement ReadMessage);

/// <summary>Answer of <c>/depth/{queue}</c>: messages waiting.</summary>
public sealed record QueueDepthResponse(
    [property: JsonPropertyName("queue")] string Queue,
    [property: JsonPropertyName("depth")] long Depth);
