-- IntegrationService schema; applied idempotently at start-up by PostgresSchemaInitializer.
create table if not exists authors (
    id              bigint generated always as identity primary key,
    name            varchar(256) not null,
    family_name     varchar(256) not null,
    middle_name     varchar(256),
    age             smallint     not null check (age between 0 and 255),
    birth_country   varchar(256),
    birth_city      varchar(256),
    books_count     smallint     not null check (books_count between 0 and 255),
    nationality     varchar(256),
    birth_date_time timestamptz
);

create table if not exists locations (
    location_id bigint primary key,
    location    text  not null,
    coordinates point not null
);

-- The unique index leads with item_id, so it also serves "the links of one item".
create table if not exists item_locations (
    item_id     bigint not null,
    location_id bigint not null references locations (location_id),
    unique (item_id, location_id)
);

-- The postgres queue (/write/postgres, /read/postgres): a message per row, taken oldest first.
create table if not exists queue_messages (
    id   bigint generated always as identity primary key,
    body bytea not null
);

-- Messages taken by a leased read (POST /read/postgres?lease=): moved here, out of queue_messages,
-- until acknowledged (deleted here) or given back (moved back under their own id) when the lease
-- ends or is given up. GET /read never sees them.
create table if not exists queue_leases (
    id           bigint primary key,
    body         bytea not null,
    token        bigint not null,
    leased_until timestamptz not null
);
create index if not exists queue_leases_leased_until on queue_leases (leased_until);

-- The postgres key-value store (/v0/entity?storage=postgres): one row per key.
create table if not exists kv (
    key   text  primary key,
    value bytea not null
);
