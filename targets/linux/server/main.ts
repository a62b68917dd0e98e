console.log("svc-server");
