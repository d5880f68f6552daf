namespace Tank.Ammo.Workloads;

/// <summary>One YCSB operation; a read-modify-write is sent as two shots, a read and an update of the same key.</summary>
public enum Operation { Read, Update, Insert, ReadModifyWrite }
