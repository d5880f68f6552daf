output "db_public_ip" {
  description = "Public IPv4 address of the database host (SSH only, from admin_cidr)."
  value       = aws_instance.db.public_ip
}

output "db_private_ip" {
  description = "Private IPv4 address of the database host: what the service connects to."
  value       = aws_instance.db.private_ip
}

output "app_public_ip" {
  description = "Public IPv4 address of the application host (SSH and the service, from admin_cidr)."
  value       = aws_instance.app.public_ip
}

output "app_private_ip" {
  description = "Private IPv4 address of the application host."
  value       = aws_instance.app.private_ip
}

output "service_url" {
  description = "Base URL of the service (reachable from admin_cidr)."
  value       = "http://${aws_instance.app.public_ip}:${local.service_port}"
}

output "health_url" {
  description = "The service's health endpoint: 200 once every backend on the db host answers."
  value       = "http://${aws_instance.app.public_ip}:${local.service_port}/health"
}

output "swagger_url" {
  description = "Swagger UI of the service."
  value       = "http://${aws_instance.app.public_ip}:${local.service_port}/swagger"
}

output "ssh_app" {
  description = "Ready-to-paste SSH command for the application host (add -i with your key pair's private key file if it is not in your agent)."
  value       = "ssh ${local.ssh_user}@${aws_instance.app.public_ip}"
}

output "ssh_db" {
  description = "Ready-to-paste SSH command for the database host."
  value       = "ssh ${local.ssh_user}@${aws_instance.db.public_ip}"
}

output "db_password" {
  description = "Password of the integration login on every database server (terraform output -raw db_password)."
  value       = random_password.db.result
  sensitive   = true
}

output "node_urls" {
  description = "Cluster__Nodes of the sharded key-value cluster, private addresses; node 0 is the app host. Empty when shard_count is 1."
  value       = local.node_urls
}

output "node_public_ips" {
  description = "Public IPv4 addresses of the node hosts 1..N-1 (SSH and the service, from admin_cidr); node 0 is app_public_ip."
  value       = aws_instance.kv_node[*].public_ip
}

output "shard_db_private_ips" {
  description = "Private IPv4 address of each node's own db host: node i+1 stores its keys on shard_db_private_ips[i] (node 0 on db_private_ip)."
  value       = aws_instance.kv_db[*].private_ip
}

output "ssh_nodes" {
  description = "Ready-to-paste SSH commands for the node hosts 1..N-1."
  value       = [for ip in aws_instance.kv_node[*].public_ip : "ssh ${local.ssh_user}@${ip}"]
}

output "redis_cluster_endpoints" {
  description = "Redis__Cluster of every node: the Redis Cluster's masters (the db host's 7001-7003, or one per Redis Cluster host on 7001)."
  value       = local.redis_cluster_endpoints
}

output "ssh_redis_cluster" {
  description = "Ready-to-paste SSH commands for the Redis Cluster hosts (empty when the masters run on the db host)."
  value       = [for ip in aws_instance.redis_cluster[*].public_ip : "ssh ${local.ssh_user}@${ip}"]
}
