namespace Lab.Cluster;

/// <summary>A cluster command that cannot go on (a port taken, a node that does not answer): printed as <c>error: …</c>, exit code 1.</summary>
public sealed class ClusterException(string message) : Exception(message);
