using System.Text.Json;

namespace IntegrationService.Queues;

/// <summary>
/// Writes <see cref="QueueReadResponse"/> (GET /read) or, given a receipt and its lease,
/// <see cref="QueueLeaseResponse"/> (the leased read) straight to the response: the stored message
/// was validated as JSON when it was written, so it is copied in as it is, not parsed again.
/// </summary>
internal sealed class QueueReadResult(string queue, long id, ReadOnlyMemory<byte> body, string? receipt = null, TimeSpan lease = default) : IResult
{
    public QueueReadResult(string queue, QueueMessage message) : this(queue, message.Id, message.Body)
    {
    }

    public QueueReadResult(string queue, LeasedMessage message, TimeSpan lease) : this(queue, message.Id, message.Body, message.Receipt, lease)
    {
    }

    public async Task ExecuteAsync(HttpContext httpContext)
    {
        var response = httpContext.Response;
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = "application/json; charset=utf-8";
        using (var json = new Utf8JsonWriter(response.BodyWriter))
        {
            json.WriteStartObject();
            json.WriteString("queue", queue);
            json.WriteString("action", receipt is null ? "read" : "lease");
            json.WriteNumber("id", id);
            if (receipt is not null)
            {
                json.WriteString("receipt", receipt);
                json.WriteNumber("lease_ms", (long)lease.TotalMilliseconds);
            }
            json.WritePropertyName("read_message");
            json.WriteRawValue(body.Span, skipInputValidation: true);
            json.WriteEndObject();
        }
        await response.BodyWriter.FlushAsync(httpContext.RequestAborted);
    }
}
