variable "name" {
  description = "Prefix for the Name tag of every resource, so several stacks can share an account."
  type        = string
  default     = "integration-bench"
}

variable "region" {
  description = "AWS region to deploy into. The original study ran in us-east-1."
  type        = string
  default     = "us-east-1"
}

variable "availability_zone" {
  description = "Availability zone of the one subnet that holds both hosts (same AZ: no cross-AZ latency in the numbers)."
  type        = string
  default     = "us-east-1c"
}

variable "use_default_vpc" {
  description = "true: put both hosts in the default VPC's default subnet of availability_zone; false: create a dedicated VPC with one public subnet."
  type        = bool
  default     = false
}

variable "vpc_cidr" {
  description = "CIDR of the dedicated VPC (ignored when use_default_vpc is true)."
  type        = string
  default     = "10.42.0.0/16"
}

variable "subnet_cidr" {
  description = "CIDR of the public subnet inside the dedicated VPC (ignored when use_default_vpc is true)."
  type        = string
  default     = "10.42.1.0/24"
}

variable "architecture" {
  description = "CPU architecture of the Debian 12 AMI: amd64 or arm64. Must match both instance types."
  type        = string
  default     = "amd64"

  validation {
    condition     = contains(["amd64", "arm64"], var.architecture)
    error_message = "architecture must be amd64 or arm64."
  }
}

variable "db_instance_type" {
  description = "EC2 instance type of the database host (PostgreSQL, Tarantool, four Redis instances, Beanstalkd)."
  type        = string
  default     = "m6i.xlarge"
}

variable "app_instance_type" {
  description = "EC2 instance type of the application host (the service in Docker and Yandex.Tank)."
  type        = string
  default     = "c6i.xlarge"
}

variable "db_root_volume_gb" {
  description = "Size in GiB of the database host's gp3 root volume (holds every database's data and WAL)."
  type        = number
  default     = 50

  validation {
    condition     = var.db_root_volume_gb >= 20
    error_message = "db_root_volume_gb must be at least 20 GiB."
  }
}

variable "app_root_volume_gb" {
  description = "Size in GiB of the application host's gp3 root volume (Docker images, ammo, Tank results)."
  type        = number
  default     = 30

  validation {
    condition     = var.app_root_volume_gb >= 10
    error_message = "app_root_volume_gb must be at least 10 GiB."
  }
}

variable "key_name" {
  description = "Name of an existing EC2 key pair in the region; its private key is what you ssh with (user admin)."
  type        = string

  validation {
    condition     = length(var.key_name) > 0
    error_message = "key_name must name an existing EC2 key pair."
  }
}

variable "admin_cidr" {
  description = "The only IPv4 network allowed to reach SSH (22) and the service (8080), e.g. your address as a /32. No default: the example value from the documentation range fails on purpose."
  type        = string

  validation {
    condition = (
      can(cidrnetmask(var.admin_cidr)) &&
      !endswith(var.admin_cidr, "/0") &&
      !startswith(var.admin_cidr, "192.0.2.") &&
      !startswith(var.admin_cidr, "198.51.100.") &&
      !startswith(var.admin_cidr, "203.0.113.")
    )
    error_message = "admin_cidr must be a real IPv4 CIDR such as 198.18.7.42/32 of your own network: not /0 and not a documentation-range placeholder (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24)."
  }
}

variable "repo_url" {
  description = "Git URL of this repository, cloned on both hosts: provisioning scripts, server configs from infra/config, tank/ files and (without service_image) the service source."
  type        = string

  validation {
    condition     = length(var.repo_url) > 0
    error_message = "repo_url must be a git URL the hosts can clone."
  }
}

variable "repo_ref" {
  description = "Branch, tag or commit of repo_url to check out on both hosts."
  type        = string
  default     = "main"
}

variable "service_image" {
  description = "Container image of the service to pull and run on the app host. Empty: build it on the host from the Dockerfile at repo_ref."
  type        = string
  default     = ""
}

variable "storage_default" {
  description = "Storage architecture the service uses when a request names none (Storage__Default)."
  type        = string
  default     = "postgres"
}

variable "kv_default" {
  description = "Storage of the key-value API /v0/entity when a request names none (Kv__Default): postgres, tarantool-memtx, tarantool-vinyl, redis-persistent or redis-cluster."
  type        = string
  default     = "postgres"

  validation {
    condition     = contains(["postgres", "tarantool-memtx", "tarantool-vinyl", "redis-persistent", "redis-cluster"], var.kv_default)
    error_message = "kv_default must be one of postgres, tarantool-memtx, tarantool-vinyl, redis-persistent, redis-cluster."
  }
}

variable "shard_count" {
  description = "Nodes of the sharded key-value cluster (Cluster__Nodes). 1: the two-host topology, one service, no cluster. N >= 2: the app host is node 0 with the db host as its store, and N-1 pairs are added, each a node host (the service, app_instance_type) and a db host of its own (db.sh, db_instance_type)."
  type        = number
  default     = 1

  validation {
    condition     = var.shard_count >= 1 && var.shard_count <= 16 && floor(var.shard_count) == var.shard_count
    error_message = "shard_count must be a whole number from 1 to 16."
  }
}

variable "redis_cluster_count" {
  description = "Masters of the Redis Cluster (storage redis-cluster), one per host. 0: no hosts of its own; the db host runs three masters on ports 7001-7003, as script/services does locally. N >= 3: N hosts, one master each on port 7001."
  type        = number
  default     = 0

  validation {
    condition     = var.redis_cluster_count == 0 || (var.redis_cluster_count >= 3 && var.redis_cluster_count <= 16 && floor(var.redis_cluster_count) == var.redis_cluster_count)
    error_message = "redis_cluster_count must be 0 (three masters on the db host) or a whole number from 3 to 16: a Redis Cluster needs at least three masters."
  }
}

variable "redis_cluster_instance_type" {
  description = "EC2 instance type of each Redis Cluster host (redis_cluster_count >= 3): one Redis master, single-threaded."
  type        = string
  default     = "m6i.large"
}

variable "redis_cluster_root_volume_gb" {
  description = "Size in GiB of each Redis Cluster host's gp3 root volume (the master's AOF)."
  type        = number
  default     = 20

  validation {
    condition     = var.redis_cluster_root_volume_gb >= 10
    error_message = "redis_cluster_root_volume_gb must be at least 10 GiB."
  }
}

variable "cluster_host_number" {
  description = "Host number inside the subnet (cidrhost) of node 0's fixed private address. With shard_count >= 2, node i gets host number cluster_host_number + i; with redis_cluster_count >= 3, Redis Cluster master i gets cluster_host_number + 16 + i. Fixed addresses let every host's user_data list the others before they exist. In the default VPC, choose numbers no other instance uses."
  type        = number
  default     = 20

  validation {
    condition     = var.cluster_host_number >= 4 && var.cluster_host_number <= 200 && floor(var.cluster_host_number) == var.cluster_host_number
    error_message = "cluster_host_number must be a whole number from 4 (AWS reserves the first four addresses) to 200."
  }
}
