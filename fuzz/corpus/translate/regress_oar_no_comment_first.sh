x
#OAR -I o.%x
#OAR -l /R -n x
