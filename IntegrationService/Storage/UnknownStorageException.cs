namespace IntegrationService.Storage;

/// <summary>The <c>storage</c> query parameter names no architecture serving the entity; a 400.</summary>
public sealed class UnknownStorageException(string? requested, string entity, IReadOnlyList<string> validNames, string parameter = "storage")
    : Exception($"Unknown {parameter} '{requested}' for {entity}. Valid names: {string.Join(", ", validNames)}.")
{
    /// <summary>The request parameter that named it: <c>storage</c>, or <c>queue</c> for the queue routes.</summary>
    public string Parameter { get; } = parameter;

    public IReadOnlyList<string> ValidNames { get; } = validNames;
}
