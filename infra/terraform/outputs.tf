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
