namespace Harness.Catalogue;

/// <summary>The catalogue could not be read: the service did not answer, or its JSON is not the contract.</summary>
public sealed class CatalogueException(string message) : Exception(message);
