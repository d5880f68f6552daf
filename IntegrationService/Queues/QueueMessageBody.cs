using System.Buffers;
using System.IO.Pipelines;
using System.Text.Json;
using IntegrationService.Http;

namespace IntegrationService.Queues;

/// <summary>
/// Reads a message from a request body: at most <see cref="QueueLimits.MaxMessageBytes"/> (413
/// beyond), and one well-formed JSON document (400 otherwise, naming the position). An empty
/// body is returned empty (the caller generates a message).
/// </summary>
internal static class QueueMessageBody
{
    public static async ValueTask<(byte[] Body, IResult? Problem)> ReadAsync(HttpRequest request)
    {
        if (request.ContentLength > QueueLimits.MaxMessageBytes) return ([], TooLarge());
        var reader = request.BodyReader;
        while (true)
        {
            var read = await reader.ReadAsync(request.HttpContext.RequestAborted);
            var buffer = read.Buffer;
            if (buffer.Length > QueueLimits.MaxMessageBytes)
            {
                reader.AdvanceTo(buffer.Start, buffer.End);
                return ([], TooLarge());
            }
            if (read.IsCompleted)
            {
                var body = buffer.ToArray();
                reader.AdvanceTo(buffer.End);
                if (body.Length == 0) return (body, null);
                if (!request.HasJsonContentType())
                {
                    return ([], Results.Problem(statusCode: StatusCodes.Status415UnsupportedMediaType, title: "Unsupported Media Type",
                        detail: "The message must be JSON (Content-Type: application/json)."));
                }
                return Validate(body) is { } invalid ? ([], ApiResults.Invalid("$", invalid)) : (body, null);
            }
            reader.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    /// <summary>Null when <paramref name="body"/> is one JSON document (no trailing data), else why not.</summary>
    internal static string? Validate(ReadOnlySpan<byte> body)
    {
        // The reader checks the grammar, not the encoding of the text inside strings.
        if (!System.Text.Unicode.Utf8.IsValid(body)) return "The message is not valid UTF-8.";
        try
        {
            var reader = new Utf8JsonReader(body, new JsonReaderOptions { CommentHandling = JsonCommentHandling.Disallow, MaxDepth = 64 });
            while (reader.Read()) { }
            return null;
        }
        catch (JsonException e)
        {
            return $"The message is not valid JSON: {e.Message}";
        }
    }

    private static IResult TooLarge() =>
        Results.Problem(statusCode: StatusCodes.Status413PayloadTooLarge, title: "Message too large",
            detail: $"A message is at most {QueueLimits.MaxMessageBytes} bytes.");
}
