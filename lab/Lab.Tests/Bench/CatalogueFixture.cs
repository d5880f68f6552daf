using Harness.Catalogue;
using IntegrationService.Http;

namespace Lab.Tests.Bench;

/// <summary>
/// The service's catalogue as <c>IntegrationService catalogue --json</c> printed it on 2026-11-25
/// (descriptions shortened, durability texts replaced by "durability of NAME").
/// </summary>
public static class CatalogueFixture
{
    public const string Json = """
        [
        {"name":"beanstalkd","aliases":[],"description":"…","serves":["Queue"],"servers":["beanstalkd"],"caches":[],"durability":{"fsync":"periodic","fsyncIntervalMs":1000,"processCrash":"nothing","powerLoss":"window","lossWindowMs":1000,"text":"durability of beanstalkd"},"delivery":{"read":"at-most-once","leased":"at-least-once"},"shardable":false,"isDefault":false,"isKvDefault":false},
        {"name":"postgres","aliases":[],"description":"…","serves":["Author","Item","Queue","KeyValue"],"servers":["postgres"],"caches":[],"durability":{"fsync":"per-commit","fsyncIntervalMs":null,"processCrash":"nothing","powerLoss":"nothing","lossWindowMs":null,"text":"durability of postgres"},"delivery":{"read":"at-most-once","leased":"at-least-once"},"shardable":true,"isDefault":true,"isKvDefault":true},
        {"name":"postgres-redis-cache","aliases":[],"description":"…","serves":["Author","Item"],"servers":["postgres"],"caches":["redis-cache"],"durability":{"fsync":"per-commit","fsyncIntervalMs":null,"processCrash":"nothing","powerLoss":"nothing","lossWindowMs":null,"text":"durability of postgres-redis-cache"},"delivery":null,"shardable":false,"isDefault":false,"isKvDefault":false},
        {"name":"postgres-redis-persistent","aliases":[],"description":"…","serves":["Item"],"servers":["redis-persistent","postgres"],"caches":[],"durability":{"fsync":"periodic","fsyncIntervalMs":1000,"processCrash":"nothing","powerLoss":"window","lossWindowMs":1000,"text":"durability of postgres-redis-persistent"},"delivery":null,"shardable":false,"isDefault":false,"isKvDefault":false},
        {"name":"redis-aof","aliases":["redis_aof"],"description":"…","serves":["Queue"],"servers":["redis-aof"],"caches":[],"durability":{"fsync":"periodic","fsyncIntervalMs":1000,"processCrash":"nothing","powerLoss":"window","lossWindowMs":1000,"text":"durability of redis-aof"},"delivery":{"read":"at-most-once","leased":"at-least-once"},"shardable":false,"isDefault":false,"isKvDefault":false},
        {"name":"redis-cluster","aliases":[],"description":"…","serves":["KeyValue"],"servers":["redis-cluster"],"caches":[],"durability":{"fsync":"periodic","fsyncIntervalMs":1000,"processCrash":"nothing","powerLoss":"window","lossWindowMs":1000,"text":"durability of redis-cluster"},"delivery":null,"shardable":false,"isDefault":false,"isKvDefault":false},
        {"name":"redis-persistent","aliases":[],"description":"…","serves":["KeyValue"],"servers":["redis-persistent"],"caches":[],"durability":{"fsync":"periodic","fsyncIntervalMs":1000,"processCrash":"nothing","powerLoss":"window","lossWindowMs":1000,"text":"durability of redis-persistent"},"delivery":null,"shardable":true,"isDefault":false,"isKvDefault":false},
        {"name":"redis-rdb","aliases":["redis_rdb"],"description":"…","serves":["Queue"],"servers":["redis-rdb"],"caches":[],"durability":{"fsync":"snapshot","fsyncIntervalMs":1000,"processCrash":"since-snapshot","powerLoss":"since-snapshot","lossWindowMs":1000,"text":"durability of redis-rdb"},"delivery":{"read":"at-most-once","leased":"at-least-once"},"shardable":false,"isDefault":false,"isKvDefault":false},
        {"name":"tarantool-memtx","aliases":[],"description":"…","serves":["Author","Item","Queue","KeyValue"],"servers":["tarantool"],"caches":[],"durability":{"fsync":"kernel","fsyncIntervalMs":null,"processCrash":"nothing","powerLoss":"window","lossWindowMs":30000,"text":"durability of tarantool-memtx"},"delivery":{"read":"at-most-once","leased":"at-least-once"},"shardable":true,"isDefault":false,"isKvDefault":false},
        {"name":"tarantool-vinyl","aliases":[],"description":"…","serves":["Author","Item","Queue","KeyValue"],"servers":["tarantool"],"caches":[],"durability":{"fsync":"kernel","fsyncIntervalMs":null,"processCrash":"nothing","powerLoss":"window","lossWindowMs":30000,"text":"durability of tarantool-vinyl"},"delivery":{"read":"at-most-once","leased":"at-least-once"},"shardable":true,"isDefault":false,"isKvDefault":false}
        ]
        """;

    public static IReadOnlyList<StorageDescription> Entries => StorageCatalogue.Parse(Json).Entries;
}
