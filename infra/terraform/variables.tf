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
