using System.Text.Json;

namespace IntegrationService.Queues;

/// <summary>
/// Writes <see cref="QueueReadResponse"/> straight to the response: the stored message was
/// validated as JSON when it was written, so it is copied in as it is, not parsed again.
/// </summary>
internal sealed class QueueReadResult(string queue, QueueMessage message) : IResult
{
    public async Task ExecuteAsync(HttpContext httpContext)
    {
        var response = httpContext.Response;
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = "application/json; charset=utf-8";
        using (var json = new Utf8JsonWriter(response.BodyWriter))
        {
            json.WriteStartObject();
            json.WriteString("queue", queue);
            json.WriteString("action", "read");
            json.WriteNumber("id", message.Id);
            json.WritePropertyName("read_message");
            json.WriteRawValue(message.Body.Span, skipInputValidation: true);
            json.WriteEndObject();
        }
        await response.BodyWriter.FlushAsync(httpContext.RequestAborted);
    }
}

/// <summary>Writes <see cref="QueueLeaseResponse"/> the same way: the stored message copied in as it is.</summary>
internal sealed class QueueLeaseResult(string queue, LeasedMessage message, TimeSpan lease) : IResult
{
    public async Task ExecuteAsync(HttpContext httpContext)
    {
        var response = httpContext.Response;
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = "application/json; charset=utf-8";
        using (var json = new Utf8JsonWriter(response.BodyWriter))
        {
            json.WriteStartObject();
            json.WriteString("queue", queue);
            json.WriteString("action", "lease");
            json.WriteNumber("id", message.Id);
            json.WriteString("receipt", message.Receipt);
            json.WriteNumber("lease_ms", (long)lease.TotalMilliseconds);
            json.WritePropertyName("read_message");
            json.WriteRawValue(message.Body.Span, skipInputValidation: true);
            json.WriteEndObject();
        }
        await response.BodyWriter.FlushAsync(httpContext.RequestAborted);
    }
}
