namespace IntegrationService.Queues;

/// <summary>A message taken off a queue: its id and its JSON document as stored (UTF-8).</summary>
public sealed record QueueMessage(long Id, ReadOnlyMemory<byte> Body);
